# The same evaluation method, but the object is espnet2's ASR model itself, a module whose forward
# runs with grad on: every utterance records its graph.
import torch


class WERTracker:
    def __init__(self, model_name, device):
        from espnet2.asr.espnet_model import ESPnetASRModel

        self.asr_model = ESPnetASRModel.from_pretrained(model_name).to(device)
        self.asr_model.eval()

    @torch.no_grad()
    def predict_hypothesis(self, wav):
        nbests = self.asr_model(wav)  # expect: ML003
        text, *_ = nbests[0]
        return text
