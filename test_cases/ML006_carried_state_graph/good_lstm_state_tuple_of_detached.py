# verify: flat
# Chunked TBPTT over a long series: the LSTM state is rebuilt as a tuple of detached tensors for every chunk.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    lstm = nn.LSTM(8, 64, batch_first=True).to(device)
    head = nn.Linear(64, 1).to(device)
    optimizer = torch.optim.Adam([*lstm.parameters(), *head.parameters()], lr=1e-3)
    criterion = nn.MSELoss()
    series = torch.randn(4, 30 * 10, 8, device=device)
    state = (torch.zeros(1, 4, 64, device=device), torch.zeros(1, 4, 64, device=device))
    for chunk in series.split(10, dim=1):
        state = tuple(s.detach() for s in state)
        out, state = lstm(chunk, state)
        loss = criterion(head(out[:, -1]), chunk[:, -1, :1])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
