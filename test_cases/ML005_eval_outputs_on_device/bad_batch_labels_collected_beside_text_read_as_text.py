# The labels of each batch are collected on the device; the function reads the items of another
# list (the sentences) as text, and the labels only as numbers (`.item()`, which a tensor has): the
# labels of every batch stay on the device until the end.
import torch


def evaluate(model, dataloader):
    model.eval()
    sentences, labels = [], []
    with torch.no_grad():
        for inputs in dataloader:
            inputs = inputs.cuda()
            sentences.extend(model.decode(inputs))
            labels.extend(inputs["label"])  # expect: ML005
    sentences = [s.strip() for s in sentences]
    return [label.item() for label in labels], sentences
