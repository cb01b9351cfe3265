# verify: flat
# Each rank maps the snapshot onto its own device (the fix from pytorch/examples issue 1078).
import os
import tempfile

import torch
import torch.nn.functional as F

local_rank = int(os.environ.get("LOCAL_RANK", "0"))
device = torch.device("cuda", local_rank) if torch.cuda.is_available() else torch.device("cpu")


def main():
    snapshot_path = os.path.join(tempfile.mkdtemp(), "snapshot.pt")
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    torch.save({"MODEL_STATE": model.state_dict()}, snapshot_path)
    snapshot = torch.load(snapshot_path, map_location=device)
    model.load_state_dict(snapshot["MODEL_STATE"])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
