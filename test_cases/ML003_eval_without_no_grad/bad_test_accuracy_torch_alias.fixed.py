# verify: flat
# `import torch as T`: a `test_accuracy` function over `test_loader` runs the network with grad enabled.
import torch as T

device = "cuda" if T.cuda.is_available() else "cpu"


@T.no_grad()
def test_accuracy(net, test_loader):
    net.eval()
    hits, seen = 0, 0
    for x, y in test_loader:
        out = net(x)  # expect: ML003
        hits += T.eq(out.argmax(1), y).sum().item()
        seen += y.numel()
    return hits / seen


def main():
    net = T.nn.Sequential(T.nn.Linear(16, 32), T.nn.ReLU(), T.nn.Linear(32, 4)).to(device)
    test_loader = [(T.randn(8, 16, device=device), T.randint(0, 4, (8,), device=device)) for _ in range(20)]
    print(f"test accuracy {test_accuracy(net, test_loader):.2f}")


if __name__ == "__main__":
    main()
