# verify: flat
# A prediction loop in main() after model.eval(), with grad enabled.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4)).to(device)
    batches = [torch.randn(32, 16, device=device) for _ in range(20)]
    model.eval()
    labels = []
    with torch.no_grad():
        for x in batches:
            probs = model(x).softmax(dim=-1)  # expect: ML003
            labels.append(probs.argmax(dim=-1).cpu())
    print(f"predicted {torch.cat(labels).bincount(minlength=4).tolist()}")


if __name__ == "__main__":
    main()
