# verify: flat
# One file, two functions: fp16 training with a scaler, bfloat16 evaluation without one.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
use_amp = device == "cuda"


def train(model, batches):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device, enabled=use_amp)
    for x, y in batches:
        with torch.autocast(device_type=device, dtype=torch.float16, enabled=use_amp):
            loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    return loss.item()


@torch.no_grad()
def evaluate(model, batches):
    correct = 0
    for x, y in batches:
        with torch.autocast(device_type=device, dtype=torch.bfloat16):
            correct += int((model(x).argmax(1) == y).sum())
    return correct


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    batches = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    print(f"last loss {train(model, batches):.3f}, {evaluate(model, batches)} correct")


if __name__ == "__main__":
    main()
