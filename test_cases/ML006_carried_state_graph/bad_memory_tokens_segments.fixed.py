# verify: leaks
# Recurrent-memory transformer style: memory tokens returned by the model are fed to the next segment undetached.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class MemoryEncoder(nn.Module):
    def __init__(self, dim=32, n_mem=4):
        super().__init__()
        self.n_mem = n_mem
        self.layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True, dropout=0.0)

    def forward(self, segment, memory):
        h = self.layer(torch.cat([memory, segment], dim=1))
        return h[:, self.n_mem:], h[:, : self.n_mem]


def main():
    model = MemoryEncoder().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    document = torch.randn(64, 16 * 8, 32, device=device)
    memory = torch.zeros(64, 4, 32, device=device)
    optimizer.zero_grad()
    for segment in document.split(8, dim=1):
        out, memory = model(segment, memory.detach())  # expect: ML006
        loss = F.mse_loss(out, segment)
        loss.backward(retain_graph=True)
    optimizer.step()
    print("last segment loss:", loss.item())


if __name__ == "__main__":
    main()
