# Inference recognised by use, outside any loop: each function runs a model and ends its output's
# history at once, so the activations its forward saves are for a backward that never comes.
import torch


class NavDataset(torch.utils.data.Dataset):
    def __init__(self, cnn, frames):
        self.cnn = cnn
        self.cnn.eval()
        self.frames = frames

    def __getitem__(self, idx):
        with torch.no_grad():
            feats = self.cnn(self.frames[idx]).data.cpu().numpy()  # expect: ML003
        return torch.from_numpy(feats)


model = torch.jit.load("inpainting.pt").eval()


def run(image, mask):
    with torch.no_grad():
        inpainted = model(image, mask)  # expect: ML003
    return inpainted[0].permute(1, 2, 0).detach().cpu().numpy()
