# verify: flat
# FGSM robustness evaluation backwards on the input on purpose, then scores the adversarial batch under no_grad.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def evaluate_robustness(model, criterion, test_loader, eps=0.1):
    model.eval()
    hits = 0
    for x, y in test_loader:
        x = x.clone().requires_grad_(True)
        loss = criterion(model(x), y)
        loss.backward()
        x_adv = (x + eps * x.grad.sign()).detach()
        with torch.no_grad():
            hits += (model(x_adv).argmax(dim=1) == y).sum().item()
    return hits / (8 * len(test_loader))


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    test_loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    print(f"robust accuracy {evaluate_robustness(model, torch.nn.CrossEntropyLoss(), test_loader):.2f}")


if __name__ == "__main__":
    main()
