# A helper with no loop over batches and no name that says evaluation: its callers in another file
# (dataset.py) hand it detector and embedder modules that their class keeps in eval mode, with grad
# on, outside any training step. The helper is evaluation code, and its graphs are wanted by nothing.
import torch


def face_embeddings(frames, detector, embedder):
    crops = []
    for frame in frames:
        crops.append(detector(frame))  # expect: ML003
    return embedder(torch.stack(crops))  # expect: ML003
