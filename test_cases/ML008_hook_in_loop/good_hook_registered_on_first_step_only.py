# verify: flat
# The gradient-logging hook is attached on the first step only (`if step == 0:`).
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    grad_norms = []
    for step in range(30):
        if step == 0:
            model[0].weight.register_hook(lambda grad: grad_norms.append(grad.norm().item()))
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}, last grad norm {grad_norms[-1]:.3f}")


if __name__ == "__main__":
    main()
