# verify: flat
# Evaluation that computes input saliency with torch.autograd.grad needs grad on purpose.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def evaluate_saliency(model, loader):
    model.eval()
    saliency = []
    for x, y in loader:
        x = x.clone().requires_grad_(True)
        score = model(x).gather(1, y[:, None]).sum()
        (grad,) = torch.autograd.grad(score, x)
        saliency.append(grad.abs().amax(dim=1).cpu())
    return torch.cat(saliency)


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    print(f"mean saliency {evaluate_saliency(model, loader).mean().item():.4f}")


if __name__ == "__main__":
    main()
