# verify: flat
# `zero_grad()` once per epoch, before the batch loop, and a final step for the leftover micro-batches at the end of the epoch.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(accum_steps=4):
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(22)]
    for epoch in range(2):
        optimizer.zero_grad()
        for i, (x, y) in enumerate(loader):
            loss = F.cross_entropy(model(x), y) / accum_steps
            loss.backward()
            if (i + 1) % accum_steps == 0 or i + 1 == len(loader):
                optimizer.step()
                optimizer.zero_grad()
        print(f"epoch {epoch}: last loss {loss.item() * accum_steps:.3f}")


if __name__ == "__main__":
    main()
