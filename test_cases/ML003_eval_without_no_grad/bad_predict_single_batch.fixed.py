# verify: flat
# A `predict` helper runs one forward with grad enabled: the graph of the whole batch is recorded for nothing.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def predict(model, x):
    model.eval()
    return model(x).argmax(dim=-1)  # expect: ML003


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    for _ in range(10):
        labels = predict(model, torch.randn(64, 16, device=device))
    print(f"labels {labels[:8].tolist()}")


if __name__ == "__main__":
    main()
