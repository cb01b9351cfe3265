# Linted as one project with self_training.py: the loss module, placed on the device with `.to(...)`,
# is still the class of the other file, whose summary says the confidence it returns has history:
# the meter sums it with every step's graph.
from self_training import ConfidenceBasedSelfTrainingLoss


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0, 0

    def update(self, val, n=1):
        self.sum += val * n  # expect: ML001
        self.count += n


def train(loader, model, optimizer, threshold, device):
    criterion = ConfidenceBasedSelfTrainingLoss(threshold).to(device)
    accs = AverageMeter()
    for x_weak, x_strong, labels in loader:
        loss, confidence, pseudo_labels = criterion(model(x_strong), model(x_weak))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total_confidence = confidence.sum()
        if total_confidence > 0:
            n_correct = (pseudo_labels == labels).float().sum()
            accs.update((n_correct / len(labels) * 100).item(), total_confidence)
