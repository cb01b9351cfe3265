# verify: flat
# `loss_by_step[step] = loss` stores each backwarded loss with its graph in an outer dict (warning).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_by_step = {}
    for step in range(25):
        x = torch.randn(8, 16, device=device)
        y = torch.randint(0, 4, (8,), device=device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_by_step[step] = loss.detach()  # expect: ML001
    best_step = min(loss_by_step, key=lambda s: loss_by_step[s].item())
    print(f"best step {best_step}")


if __name__ == "__main__":
    main()
