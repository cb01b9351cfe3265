# A helper named for what it computes, not for evaluation: it runs the two networks it is handed
# with grad on and never differentiates, and its one caller hands it both after `.eval()`. The
# callers decide its context: it is inference, and every forward records a graph nobody wants.
import torch
from facenet_pytorch import MTCNN, InceptionResnetV1


@torch.no_grad()
def face_embeddings(frames, detector, embedder):
    crops = []
    for frame in frames:
        crops.append(detector(frame))  # expect: ML003
    return embedder(torch.stack(crops))  # expect: ML003


if __name__ == "__main__":
    detector = MTCNN(keep_all=True).eval()
    embedder = InceptionResnetV1(pretrained="vggface2").eval()
    emb = face_embeddings(["a.jpg", "b.jpg"], detector, embedder)
