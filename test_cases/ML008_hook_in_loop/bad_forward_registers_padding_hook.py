# verify: leaks
# forward() registers a pre-hook that applies this batch's padding mask: one more hook (and mask) per call.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class MaskedPooler(torch.nn.Module):
    def __init__(self, dim=1024, classes=4):
        super().__init__()
        self.proj = torch.nn.Linear(dim, dim)
        self.classifier = torch.nn.Linear(dim, classes)

    def forward(self, x, padding_mask):
        def apply_mask(module, args):
            return (args[0] * padding_mask,)

        self.proj.register_forward_pre_hook(apply_mask)  # expect: ML008
        return self.classifier(self.proj(x).mean(dim=0))


def main():
    model = MaskedPooler().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(30):
        x = torch.randn(128, 1024, device=device)
        padding_mask = (torch.rand(128, 1024, device=device) > 0.2).float()
        target = torch.randint(0, 4, (1,), device=device)
        loss = F.cross_entropy(model(x, padding_mask).unsqueeze(0), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
