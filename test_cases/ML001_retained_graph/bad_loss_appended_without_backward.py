# verify: leaks
# A grad-enabled probe loop appends each loss with its graph and never backwards it (error).
# The function never differentiates and no output leaves it: its forwards are evaluation too (ML003).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    batches = [(torch.randn(512, 16, device=device), torch.randint(0, 4, (512,), device=device)) for _ in range(30)]
    probe_losses = []
    for x, y in batches:
        loss = criterion(model(x), y)  # expect: ML003
        probe_losses.append(loss)  # expect: ML001
    worst = max(l.item() for l in probe_losses)
    print(f"worst probe loss {worst:.3f}")


if __name__ == "__main__":
    main()
