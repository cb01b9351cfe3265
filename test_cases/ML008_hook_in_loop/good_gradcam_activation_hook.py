# verify: flat
# Grad-CAM style: register_hook on this batch's activation; the hook dies with the tensor.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class SmallCNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.features = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU())
        self.classifier = torch.nn.Linear(8, 5)

    def forward(self, x):
        return self.features(x)


def main():
    model = SmallCNN().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    cams = []
    for step in range(30):
        images = torch.randn(4, 3, 16, 16, device=device)
        labels = torch.randint(0, 5, (4,), device=device)
        grads = {}
        activation = model(images)
        activation.register_hook(lambda grad: grads.__setitem__("act", grad.detach()))
        loss = F.cross_entropy(model.classifier(activation.mean(dim=(2, 3))), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        weights = grads["act"].mean(dim=(2, 3), keepdim=True)
        cams.append((weights * activation.detach()).sum(1).relu().cpu())
    print(f"last loss {loss.item():.3f}, {len(cams)} CAMs")


if __name__ == "__main__":
    main()
