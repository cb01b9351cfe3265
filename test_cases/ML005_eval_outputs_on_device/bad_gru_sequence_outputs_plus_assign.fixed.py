# verify: leaks
# Sequence tagger evaluated under set_grad_enabled(False); per-step GRU outputs accumulated with `+=` on a list.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    gru = nn.GRU(16, 64, batch_first=True).to(device)
    classifier = nn.Linear(64, 32).to(device)
    dev_batches = [torch.randn(64, 64, 16) for _ in range(30)]
    tag_probs = []
    with torch.set_grad_enabled(False):
        for tokens in dev_batches:
            states, _ = gru(tokens.to(device))
            probs = F.softmax(classifier(states), dim=-1)
            tag_probs += [probs.detach().cpu()]  # expect: ML005
    print("tagged batches:", len(tag_probs))


if __name__ == "__main__":
    main()
