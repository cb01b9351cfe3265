# Linted as one project with self_training.py: the loss module, placed on the device with `.to(...)`,
# is still the class of the other file, whose summary says the mask it returns has no history; the
# meter's count of pseudo-labels keeps no graph.
from self_training import ConfidenceBasedSelfTrainingLoss


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n


def train(loader, model, optimizer, threshold, device):
    criterion = ConfidenceBasedSelfTrainingLoss(threshold).to(device)
    accs = AverageMeter()
    for x_weak, x_strong, labels in loader:
        loss, mask, pseudo_labels = criterion(model(x_strong), model(x_weak))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        n_pseudo_labels = mask.sum()
        if n_pseudo_labels > 0:
            n_correct = (pseudo_labels == labels).float().sum()
            accs.update((n_correct / n_pseudo_labels * 100).item(), n_pseudo_labels)
