# verify: flat
# Activation-statistics hooks are added every step and only removed once training ends: they pile up meanwhile.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    act_means = {}
    handles = []
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        handles.append(  # the handles are kept, but removed only after the loop
            model[1].register_forward_hook(lambda m, i, out: act_means.__setitem__("relu", out.mean().item()))  # expect: ML008
        )
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    for handle in handles:
        handle.remove()
    print(f"last loss {loss.item():.3f}, relu mean {act_means['relu']:.3f}")


if __name__ == "__main__":
    main()
