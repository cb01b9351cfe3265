# verify: leaks
# Evaluation without no_grad collects logits and labels on the device, then compares them (issue 17:
# moving only the labels to the CPU broke the comparison, cuda:0 vs cpu). The fix is planned as one
# edit: `no_grad` on the function, and both collected lists moved off the device together.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    all_logits, all_labels = [], []
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        logits = model(images)  # expect: ML003
        all_logits.append(logits.detach().cpu())  # expect: ML005
        all_labels.append(labels.detach().cpu())  # expect: ML005
    logits = torch.cat(all_logits)
    labels = torch.cat(all_labels)
    top5 = logits.topk(5, dim=1).indices
    return (top5[:, 0] == labels).float().mean().item()


if __name__ == "__main__":
    net = torch.nn.Sequential(torch.nn.Linear(64, 512), torch.nn.ReLU(), torch.nn.Linear(512, 256)).to(device)
    batches = [(torch.randn(512, 64), torch.randint(0, 256, (512,))) for _ in range(40)]
    print(evaluate(net, batches))
