# verify: flat
# Multi-task step: two heads on a shared trunk, first loss backwarded with retain_graph=True, second without.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    backbone = nn.Sequential(nn.Linear(32, 128), nn.ReLU()).to(device)
    cls_head = nn.Linear(128, 5).to(device)
    reg_head = nn.Linear(128, 1).to(device)
    optimizer = torch.optim.SGD([*backbone.parameters(), *cls_head.parameters(), *reg_head.parameters()], lr=0.01)
    for step in range(30):
        x = torch.randn(64, 32, device=device)
        labels, values = torch.randint(0, 5, (64,), device=device), torch.randn(64, 1, device=device)
        feats = backbone(x)
        optimizer.zero_grad()
        cls_loss = F.cross_entropy(cls_head(feats), labels)
        cls_loss.backward(retain_graph=True)
        reg_loss = F.mse_loss(reg_head(feats), values)
        reg_loss.backward()
        optimizer.step()
    print("cls %.3f reg %.3f" % (cls_loss.item(), reg_loss.item()))


if __name__ == "__main__":
    main()
