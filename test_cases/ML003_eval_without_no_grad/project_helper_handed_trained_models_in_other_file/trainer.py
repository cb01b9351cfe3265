import torch
from facenet_pytorch import MTCNN, InceptionResnetV1

from frames import face_embeddings


class EmbedderTrainer:
    def __init__(self, device):
        self.detector = MTCNN(keep_all=True).eval()
        self.embedder = InceptionResnetV1(pretrained="vggface2").eval().to(device)
        self.optimizer = torch.optim.Adam(self.embedder.parameters())

    def fit(self, videos, targets):
        self.embedder.train()
        for frames, target in zip(videos, targets):
            embeddings = face_embeddings(frames, self.detector, self.embedder)
            loss = torch.nn.functional.mse_loss(embeddings, target)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
