# An inference script: `main` loads two networks, puts each in eval mode and runs each once, with
# autograd on: every activation of both forwards is kept for a backward that never comes, which
# is what runs out of memory on long inputs (VoiceFilter PR 6).
import torch


def main(checkpoint, reference, mixed):
    embedder = torch.nn.Sequential(torch.nn.Linear(40, 256), torch.nn.ReLU(), torch.nn.Linear(256, 256))
    embedder.load_state_dict(torch.load(checkpoint, map_location="cpu")["embedder"])
    embedder.eval()
    model = torch.nn.Sequential(torch.nn.Linear(256 + 601, 601), torch.nn.Sigmoid())
    model.load_state_dict(torch.load(checkpoint, map_location="cpu")["model"])
    model.eval()

    dvec = embedder(reference).mean(dim=0)  # expect: ML003
    mask = model(torch.cat([mixed, dvec.expand(mixed.shape[0], -1)], dim=1))  # expect: ML003
    return (mixed * mask).cpu().numpy()
