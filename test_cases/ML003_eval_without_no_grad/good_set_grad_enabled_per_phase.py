# verify: flat
# torchvision fine-tuning pattern: `with torch.set_grad_enabled(phase == "train")` covers the val phase.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    make = lambda n: [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(n)]
    dataloaders = {"train": make(15), "val": make(10)}
    for epoch in range(2):
        for phase in ["train", "val"]:
            model.train() if phase == "train" else model.eval()
            running_loss, running_corrects = 0.0, 0
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.item() * inputs.size(0)
                running_corrects += (outputs.argmax(dim=1) == labels).sum().item()
            print(f"{epoch} {phase}: loss {running_loss / (8 * len(dataloaders[phase])):.3f}")


if __name__ == "__main__":
    main()
