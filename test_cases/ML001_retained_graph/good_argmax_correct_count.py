# verify: flat
# Accuracy counters built from argmax and comparisons carry no history even when kept on device.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    correct = torch.zeros((), dtype=torch.long, device=device)
    seen = 0
    for _ in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        logits = model(x)
        loss = criterion(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        correct += (logits.argmax(dim=1) == y).sum()
        seen += y.numel()
    print(f"train accuracy {correct.item() / seen:.2f}")


if __name__ == "__main__":
    main()
