# verify: leaks
# @torch.no_grad() embedding extraction stores each batch's encoder output in a dict, on the device.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def extract_embeddings(encoder, loader):
    encoder.eval()
    embeddings = {}
    for batch_idx, images in enumerate(loader):
        feats = encoder(images.to(device))
        embeddings[batch_idx] = feats.detach().cpu()  # expect: ML005
    return embeddings


def main():
    encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 256), nn.ReLU(), nn.Linear(256, 512)).to(device)
    loader = [torch.randn(256, 3, 16, 16) for _ in range(30)]
    embeddings = extract_embeddings(encoder, loader)
    print("batches embedded:", len(embeddings))


if __name__ == "__main__":
    main()
