# verify: flat
# The GRUCell state is unrolled over the timesteps of one batch and re-initialised per batch; backward after the unroll.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    cell = nn.GRUCell(6, 48).to(device)
    head = nn.Linear(48, 3).to(device)
    optimizer = torch.optim.Adam([*cell.parameters(), *head.parameters()], lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    for step in range(30):
        x = torch.randn(16, 15, 6, device=device)
        y = torch.randint(0, 3, (16,), device=device)
        h = torch.zeros(16, 48, device=device)
        for t in range(x.size(1)):
            h = cell(x[:, t], h)
        loss = criterion(head(h), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
