# Evaluation recognised by use: nothing names it, but the loop never differentiates and reads the
# model's outputs only through `.detach()`, so every graph it records is built for nothing. (`main`
# hands it a module: that it is one is no guess from its name.)
import torch


def collect_embeddings(encoder, batches):
    embeddings = []
    with torch.no_grad():
        for images in batches:
            features = encoder(images)  # expect: ML003
            embeddings.append(features.detach().cpu().numpy())
    return embeddings


def main(batches):
    encoder = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 64))
    return collect_embeddings(encoder, batches)
