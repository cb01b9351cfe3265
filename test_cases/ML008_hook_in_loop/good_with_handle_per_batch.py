# verify: flat
# A per-batch mask hook opened with `with`: the handle removes the hook when the forward is done.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(30):
        x, y = torch.randn(32, 64, device=device), torch.randint(0, 10, (32,), device=device)
        mask = (torch.rand(32, 256, device=device) > 0.1).float() / 0.9
        with model[1].register_forward_hook(lambda module, inputs, out: out * mask):
            loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
