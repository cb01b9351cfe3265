# verify: flat
# pytorch/examples word_language_model: repackage_hidden() detaches the LSTM (h, c) tuple before each batch.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def main():
    lstm = nn.LSTM(32, 64, num_layers=2).to(device)
    decoder = nn.Linear(64, 50).to(device)
    embedding = nn.Embedding(50, 32).to(device)
    params = [*lstm.parameters(), *decoder.parameters(), *embedding.parameters()]
    optimizer = torch.optim.SGD(params, lr=1.0)
    criterion = nn.CrossEntropyLoss()
    hidden = (torch.zeros(2, 8, 64, device=device), torch.zeros(2, 8, 64, device=device))
    for batch in range(30):
        data = torch.randint(0, 50, (20, 8), device=device)
        targets = torch.randint(0, 50, (20 * 8,), device=device)
        hidden = repackage_hidden(hidden)
        output, hidden = lstm(embedding(data), hidden)
        loss = criterion(decoder(output).view(-1, 50), targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 0.25)
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
