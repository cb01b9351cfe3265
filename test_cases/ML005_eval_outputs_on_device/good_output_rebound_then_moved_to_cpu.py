# The look-alike: the output is rebound through its own name too, and the last rebinding moves it to the
# CPU (or to a list of Python numbers) before it is kept.
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
            feats = F.normalize(feats, dim=1).cpu()
            bank.append(feats)
    return torch.cat(bank)


def predict(classifier, loader):
    classifier.eval()
    labels = []
    with torch.no_grad():
        for images, _ in loader:
            probs = classifier(images.to(device))
            probs = probs.softmax(-1).argmax(-1).tolist()
            labels.extend(probs)
    return labels


def main():
    encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 512)).to(device)
    loader = [(torch.randn(64, 3, 32, 32), torch.zeros(64)) for _ in range(20)]
    print(embed(encoder, loader).shape, len(predict(encoder, loader)))


if __name__ == "__main__":
    main()
