# verify: flat
# A per-step helper `train_step` (it steps the optimizer, without a loop of its own) ends with empty_cache().
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def train_step(model, criterion, optimizer, x, y):
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    torch.cuda.empty_cache()  # expect: ML004
    return loss.item()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(20):
        last = train_step(model, criterion, optimizer, torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device))
    print(f"last loss {last:.3f}")


if __name__ == "__main__":
    main()
