# verify: flat
# `eval_step` has no decorator, but its only caller runs under torch.no_grad().
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def eval_step(model, x, y):
    logits = model(x)
    return F.cross_entropy(logits, y).item(), (logits.argmax(dim=1) == y).float().mean().item()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    val_loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    model.eval()
    results = []
    with torch.no_grad():
        for x, y in val_loader:
            results.append(eval_step(model, x, y))
    print(f"val loss {sum(r[0] for r in results) / len(results):.3f}")


if __name__ == "__main__":
    main()
