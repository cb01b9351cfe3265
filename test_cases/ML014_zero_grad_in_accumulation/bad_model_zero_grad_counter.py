# verify: flat
# `model.zero_grad()` on every batch while an accumulation counter decides when the optimizer steps.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(accumulation_steps=3):
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    accumulated = 0
    for batch_idx in range(21):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        model.zero_grad()  # expect: ML014
        loss = F.cross_entropy(model(x), y)
        (loss / accumulation_steps).backward()
        accumulated += 1
        if accumulated == accumulation_steps:
            optimizer.step()
            accumulated = 0
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
