# verify: flat
# An inference script that calls `torch.set_grad_enabled(False)` once at module level: grad is off for everything below.
import torch

torch.set_grad_enabled(False)
device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    model.eval()
    counts = torch.zeros(4, dtype=torch.long, device=device)
    for x in [torch.randn(8, 16, device=device) for _ in range(20)]:
        counts += model(x).argmax(dim=-1).bincount(minlength=4)
    print(f"class counts {counts.tolist()}")


if __name__ == "__main__":
    main()
