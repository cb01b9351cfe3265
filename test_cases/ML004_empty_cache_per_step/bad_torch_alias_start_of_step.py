# verify: flat
# `import torch as T`: `T.cuda.empty_cache()` as the first statement of every step.
import torch as T

device = "cuda" if T.cuda.is_available() else "cpu"


def main():
    model = T.nn.Sequential(T.nn.Linear(16, 32), T.nn.ReLU(), T.nn.Linear(32, 4)).to(device)
    criterion = T.nn.CrossEntropyLoss()
    optimizer = T.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        T.cuda.empty_cache()  # expect: ML004
        x, y = T.randn(8, 16, device=device), T.randint(0, 4, (8,), device=device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
