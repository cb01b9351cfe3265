# verify: flat
# Losses appended inside an @torch.inference_mode() function carry no graph.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.inference_mode()
def score_batches(model, criterion, batches):
    losses = []
    for x, y in batches:
        losses.append(criterion(model(x), y))
    return torch.stack(losses)


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    batches = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    scores = score_batches(model, criterion, batches)
    print(f"hardest batch {scores.argmax().item()}")


if __name__ == "__main__":
    main()
