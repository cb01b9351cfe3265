# An embedding pass rebinds each step's output through its own name (`feats = F.normalize(feats)`,
# `probs = probs.softmax(-1)`): the new value is still the batch's tensor on the device, and every batch's
# is kept.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def embed(encoder, loader):
    encoder.eval()
    bank = []
    with torch.no_grad():
        for images, _ in loader:
            feats = encoder(images.to(device))
            feats = F.normalize(feats, dim=1)
            bank.append(feats)  # expect: ML005
    return torch.cat(bank)


def predict(classifier, loader):
    classifier.eval()
    outputs = []
    with torch.no_grad():
        for images, _ in loader:
            probs = classifier(images.to(device))
            probs = probs.softmax(-1)
            outputs.append(probs)  # expect: ML005
    return outputs


def main():
    encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 512)).to(device)
    loader = [(torch.randn(64, 3, 32, 32), torch.zeros(64)) for _ in range(20)]
    print(embed(encoder, loader).shape, len(predict(encoder, loader)))


if __name__ == "__main__":
    main()
