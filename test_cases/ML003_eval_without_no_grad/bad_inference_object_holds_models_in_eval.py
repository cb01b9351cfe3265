# An inference object: its class puts the models it holds in eval mode and trains nothing, so its
# methods run them for inference whatever they are named, and each call records a graph for a
# backward that never comes.
import torch


class Synthesizer:
    def __init__(self, checkpoint, device="cuda"):
        self.device = device
        self.acoustic = torch.load(checkpoint, map_location=device)
        self.acoustic.eval()
        self.vocoder = torch.jit.load("vocoder.pt").to(device).eval()

    def synthesize(self, text_ids):
        ids = torch.tensor(text_ids, device=self.device)[None]
        mel = self.acoustic(ids)  # expect: ML003
        wav = self.vocoder(mel)  # expect: ML003
        return wav.squeeze().cpu().numpy()


class Predictor:
    def __init__(self, model, device):
        self.model = model.to(device)
        self.model.eval()
        self.device = device

    def __call__(self, image):
        x = torch.as_tensor(image).to(self.device)
        return self.model(x[None])[0].cpu().numpy()  # expect: ML003


class Scorer:
    def __init__(self, model):
        self.model = model.eval()

    def score_all(self, batches):
        scores = []
        for batch in batches:
            scores.append(self.score(batch))  # expect: ML003, ML001
        return scores

    def score(self, batch):
        # called only from `score_all`'s loop: that loop is the region, reported at its call
        return self.model(batch).sigmoid().cpu()
