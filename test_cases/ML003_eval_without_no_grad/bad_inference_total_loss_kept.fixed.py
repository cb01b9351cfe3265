# verify: leaks
# `inference` sums losses with grad enabled: the first model call is ML003, the kept sum of graphs is ML001.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def inference(model, batches):
    model.eval()
    total = 0.0
    for x, y in batches:
        logits = model(x)  # expect: ML003
        total = total + F.cross_entropy(logits, y).detach()  # expect: ML001
    avg = total.item() / len(batches)
    print(f"inference loss {avg:.3f}")
    return avg


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 4)).to(device)
    inference(model, [(torch.randn(512, 16, device=device), torch.randint(0, 4, (512,), device=device)) for _ in range(20)])


if __name__ == "__main__":
    main()
