# verify: leaks
# `all_logits = torch.cat([all_logits, logits])` in the training loop keeps every batch's logits and graph (warning).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1000)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    all_logits = torch.empty(0, 1000, device=device)
    for _ in range(20):
        x, y = torch.randn(512, 16, device=device), torch.randint(0, 1000, (512,), device=device)
        logits = model(x)
        loss = criterion(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        all_logits = torch.cat([all_logits.detach().cpu(), logits.detach().cpu()])  # expect: ML001
    print(f"collected {all_logits.shape[0]} rows")


if __name__ == "__main__":
    main()
