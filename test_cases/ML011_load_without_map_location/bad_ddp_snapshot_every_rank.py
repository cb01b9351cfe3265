# verify: flat
# A torchrun-style trainer loads its snapshot on every rank without map_location: all ranks land on cuda:0 (pytorch issue 7415).
import os
import tempfile

import torch
import torch.nn.functional as F

local_rank = int(os.environ.get("LOCAL_RANK", "0"))
device = torch.device("cuda", local_rank) if torch.cuda.is_available() else torch.device("cpu")


class Trainer:
    def __init__(self, model, snapshot_path):
        self.model = model.to(device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.snapshot_path = snapshot_path
        self.epochs_run = 0
        if os.path.exists(snapshot_path):
            self._load_snapshot(snapshot_path)

    def _load_snapshot(self, snapshot_path):
        snapshot = torch.load(snapshot_path)  # expect: ML011
        self.model.load_state_dict(snapshot["MODEL_STATE"])
        self.epochs_run = snapshot["EPOCHS_RUN"]

    def _save_snapshot(self, epoch):
        torch.save({"MODEL_STATE": self.model.state_dict(), "EPOCHS_RUN": epoch}, self.snapshot_path)

    def train(self, steps):
        for step in range(steps):
            x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
            loss = F.cross_entropy(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        self._save_snapshot(self.epochs_run + 1)
        return loss.item()


def main():
    snapshot_path = os.path.join(tempfile.mkdtemp(), "snapshot.pt")
    net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    Trainer(net, snapshot_path).train(5)
    print(f"resumed run, last loss {Trainer(net, snapshot_path).train(30):.3f}")


if __name__ == "__main__":
    main()
