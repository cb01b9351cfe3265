"""`torch.cuda.empty_cache()` after every optimizer step of a small MLP
(ML004). `memlint verify --compare-fix` times the loop as written and with
the call removed (verify's in-memory removal: ML004's fix is display-only).
On a GPU the cache is handed back and allocated again every step; without
one `empty_cache()` does nothing, and the two step times agree.
"""
import torch

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
    torch.cuda.empty_cache()
print(f"last loss {loss.item():.4f}")
