import torch
from facenet_pytorch import MTCNN, InceptionResnetV1

from frames import face_embeddings


class FaceDataset(torch.utils.data.Dataset):
    def __init__(self, videos, device):
        self.videos = videos
        self.detector = MTCNN(keep_all=True).eval()
        self.embedder = InceptionResnetV1(pretrained="vggface2").eval()
        self.embedder = self.embedder.to(device)

    def __len__(self):
        return len(self.videos)

    def __getitem__(self, index):
        embeddings = face_embeddings(self.videos[index], self.detector, self.embedder)
        return embeddings.cpu()
