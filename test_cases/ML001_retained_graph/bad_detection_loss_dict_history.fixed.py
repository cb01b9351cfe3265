# verify: flat
# torchvision-detection style: the dict of losses returned by the model is appended to an epoch history (warning).
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class ToyDetector(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = torch.nn.Linear(16, 32)
        self.cls_head = torch.nn.Linear(32, 4)
        self.box_head = torch.nn.Linear(32, 4)

    def forward(self, images, targets):
        feats = torch.relu(self.backbone(images))
        return {
            "loss_classifier": F.cross_entropy(self.cls_head(feats), targets["labels"]),
            "loss_box_reg": F.smooth_l1_loss(self.box_head(feats), targets["boxes"]),
        }


def main():
    model = ToyDetector().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    history = []
    for _ in range(20):
        images = torch.randn(8, 16, device=device)
        targets = {"labels": torch.randint(0, 4, (8,), device=device), "boxes": torch.rand(8, 4, device=device)}
        loss_dict = model(images, targets)
        losses = sum(loss for loss in loss_dict.values())
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        history.append(loss_dict.detach())  # expect: ML001
    print(f"last box loss {history[-1]['loss_box_reg'].item():.3f}")


if __name__ == "__main__":
    main()
