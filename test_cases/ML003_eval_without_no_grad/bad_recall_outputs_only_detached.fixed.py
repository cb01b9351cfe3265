# Evaluation recognised by use: nothing names it, but the loop never differentiates and reads the
# model's outputs only through `.detach()`, so every graph it records is built for nothing.
import torch
def collect_embeddings(encoder, batches):
    embeddings = []
    with torch.no_grad():
        for images in batches:
            features = encoder(images)  # expect: ML003
            embeddings.append(features.detach().cpu().numpy())
    return embeddings
