# verify: flat
# `import torch.utils.checkpoint as cp`; a multi-line `cp.checkpoint(...)` call passing the mask as a second input.
import torch
import torch.nn.functional as F
import torch.utils.checkpoint as cp

device = "cuda" if torch.cuda.is_available() else "cpu"


def masked_mixer(h, mask):
    weights = torch.softmax(h @ h.transpose(1, 2) + mask, dim=-1)
    return weights @ h


class Mixer(torch.nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.proj = torch.nn.Linear(16, dim)
        self.head = torch.nn.Linear(dim, 4)

    def forward(self, x, mask):
        h = self.proj(x)
        h = cp.checkpoint(  # expect: ML013
            masked_mixer,
            h,
            mask
        )
        return self.head(h.mean(1))


def main():
    model = Mixer().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    mask = torch.zeros(10, 10, device=device)
    for step in range(20):
        x, y = torch.randn(8, 10, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x, mask), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
