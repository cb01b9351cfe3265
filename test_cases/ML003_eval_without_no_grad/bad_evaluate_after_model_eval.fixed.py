# verify: flat
# `evaluate` calls model.eval() but not torch.no_grad(): every forward still records a graph.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        logits = model(x)  # expect: ML003
        correct += (logits.argmax(dim=1) == y).sum().item()
    model.train()
    return correct / sum(len(y) for _, y in loader)


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4)).to(device)
    loader = [(torch.randn(32, 16, device=device), torch.randint(0, 4, (32,), device=device)) for _ in range(20)]
    print(f"accuracy {evaluate(model, loader):.2f}")


if __name__ == "__main__":
    main()
