# verify: flat
# `zero_grad()` after the `if ...: optimizer.step()` block, but outside it: it runs after every micro-batch.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def train(model, loader, optimizer, gradient_accumulation_steps=4):
    model.train()
    for step, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x), y) / gradient_accumulation_steps
        loss.backward()
        if step % gradient_accumulation_steps == gradient_accumulation_steps - 1:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
        optimizer.zero_grad()  # expect: ML014
    return loss.item()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(24)]
    print(f"last loss {train(model, loader, optimizer):.3f}")


if __name__ == "__main__":
    main()
