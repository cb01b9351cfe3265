# The same kind of helper, but one caller hands it a network in training mode and differentiates
# what it returns: the helper is part of a training step, so its graph is wanted.
import torch
from facenet_pytorch import InceptionResnetV1


def face_embeddings(frames, embedder):
    return embedder(torch.stack(frames))


def train(frames, targets, steps):
    embedder = InceptionResnetV1(pretrained="vggface2")
    optimizer = torch.optim.Adam(embedder.parameters())
    embedder.train()
    for _ in range(steps):
        emb = face_embeddings(frames, embedder)
        loss = torch.nn.functional.mse_loss(emb, targets)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def embed_once(frames):
    embedder = InceptionResnetV1(pretrained="vggface2").eval()
    with torch.no_grad():
        return face_embeddings(frames, embedder)
