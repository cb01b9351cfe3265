# The teacher is put in eval mode, then a loop scores it on the validation set through a helper of
# this file that runs it with grad on and never trains: activations saved for nothing, per batch.
import torch


def score_batch(model, samples, targets):
    return (model(samples).argmax(-1) == targets).sum().item()


def main(teacher, val_loader):
    teacher.eval()
    correct = 0
    with torch.no_grad():
        for samples, targets in val_loader:
            correct += score_batch(teacher, samples, targets)  # expect: ML003
    return correct
