"""Anomaly mode switched on for the whole run (ML009), the same small MLP.
`memlint verify --compare-fix` times the loop as written and with memlint's
fix (`set_detect_anomaly(True)` -> `(False)`): anomaly mode records a
traceback in every autograd node and checks every backward output.
"""
import torch

torch.autograd.set_detect_anomaly(True)
device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 10)
).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = torch.nn.CrossEntropyLoss()
x = torch.randn(256, 512, device=device)
y = torch.randint(0, 10, (256,), device=device)

for step in range(1000):
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
print(f"last loss {loss.item():.4f}")
