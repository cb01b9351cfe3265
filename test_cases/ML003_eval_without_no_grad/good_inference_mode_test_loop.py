# verify: flat
# A loop over `test_loader` inside `with torch.inference_mode()`.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    test_loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    model.eval()
    test_loss = 0.0
    with torch.inference_mode():
        for x, y in test_loader:
            test_loss += criterion(model(x), y).item()
    print(f"test loss {test_loss / len(test_loader):.3f}")


if __name__ == "__main__":
    main()
