# verify: flat
# An embedding helper called once per evaluation batch registers a hook to grab features and never removes it.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def embed(model, images):
    features = {}
    hook = model[1].register_forward_hook(lambda m, i, out: features.__setitem__("penultimate", out.detach()))  # expect: ML008
    model(images)
    return features["penultimate"].cpu()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10)).to(device).eval()
    val_loader = [torch.randn(16, 32, device=device) for _ in range(30)]
    embeddings = []
    with torch.no_grad():
        for images in val_loader:
            embeddings.append(embed(model, images))
    print(torch.cat(embeddings).shape)


if __name__ == "__main__":
    main()
