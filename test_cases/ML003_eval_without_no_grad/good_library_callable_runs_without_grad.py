# espnet2's `Speech2Text.__call__` is decorated `@torch.no_grad()`: transcribing in an evaluation
# method records no graph, whatever the object is called.
import torch


class WERTracker:
    def __init__(self, model_name, device):
        from espnet2.bin.asr_inference import Speech2Text

        self.asr_model = Speech2Text(model_name, device=device)

    def predict_hypothesis(self, wav):
        nbests = self.asr_model(wav)
        text, *_ = nbests[0]
        return text
