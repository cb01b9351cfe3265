# verify: flat
# `from torch import no_grad` used as a bare decorator (`@no_grad`, torch >= 2.0) on `run_validation`.
import torch
from torch import no_grad

device = "cuda" if torch.cuda.is_available() else "cpu"


@no_grad
def run_validation(model, val_loader):
    model.eval()
    total = 0.0
    for x, y in val_loader:
        total += torch.nn.functional.cross_entropy(model(x), y).item()
    return total / len(val_loader)


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    val_loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    print(f"val loss {run_validation(model, val_loader):.3f}")


if __name__ == "__main__":
    main()
