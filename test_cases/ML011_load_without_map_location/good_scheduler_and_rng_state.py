# verify: flat
# The LR-scheduler and RNG states hold Python numbers and CPU tensors; the model state is loaded with map_location.
import os
import tempfile

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def save_training_state(directory, model, scheduler):
    torch.save(model.state_dict(), os.path.join(directory, "model.pt"))
    torch.save(scheduler.state_dict(), os.path.join(directory, "scheduler.pt"))
    torch.save({"cpu": torch.get_rng_state()}, os.path.join(directory, "rng_state.pth"))


def load_training_state(directory, model, scheduler):
    model.load_state_dict(torch.load(os.path.join(directory, "model.pt"), map_location="cpu"))
    scheduler.load_state_dict(torch.load(os.path.join(directory, "scheduler.pt")))
    rng_state = torch.load(os.path.join(directory, "rng_state.pth"))
    torch.set_rng_state(rng_state["cpu"])


def main():
    directory = tempfile.mkdtemp()
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)
    save_training_state(directory, model, scheduler)
    load_training_state(directory, model, scheduler)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
