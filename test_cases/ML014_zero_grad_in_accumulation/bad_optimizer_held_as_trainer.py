# The optimizer is held as `trainer` (as d2l's chapters call it): what makes it, `torch.optim.SGD`,
# says it is one, so its `zero_grad()` at the top of every micro-batch discards what the
# accumulation summed.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
ACCUM_STEPS = 4


def main():
    net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    trainer = torch.optim.SGD(net.parameters(), lr=0.1)
    loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(24)]
    for i, (x, y) in enumerate(loader):
        trainer.zero_grad()  # expect: ML014
        loss = F.cross_entropy(net(x), y) / ACCUM_STEPS
        loss.backward()
        if (i + 1) % ACCUM_STEPS == 0:
            trainer.step()
    print(f"last loss {loss.item() * ACCUM_STEPS:.3f}")


if __name__ == "__main__":
    main()
