# verify: leaks
# TBPTT over chunks of one long series forgets to detach the LSTM (h, c) state; every chunk's graph stays linked.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    lstm = nn.LSTM(8, 32, batch_first=True).to(device)
    head = nn.Linear(32, 1).to(device)
    optimizer = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=1e-3)
    criterion = nn.MSELoss()
    series = torch.randn(2048, 20 * 4, 8, device=device)
    state = (torch.zeros(1, 2048, 32, device=device), torch.zeros(1, 2048, 32, device=device))
    optimizer.zero_grad()
    for chunk in series.split(4, dim=1):
        out, state = lstm(chunk, tuple(s.detach() for s in state))  # expect: ML006
        loss = criterion(head(out[:, -1]), chunk[:, -1, :1])
        loss.backward(retain_graph=True)
    optimizer.step()  # one step for the whole series, after all chunks
    print("last chunk loss:", loss.item())


if __name__ == "__main__":
    main()
