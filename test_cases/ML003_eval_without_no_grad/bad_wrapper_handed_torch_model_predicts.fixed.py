# A predictor wraps the encoder it is handed and runs it with grad on in `predict`: the encoder is
# a transformers model (a torch module), so every call records a graph that is never used.
import torch
from transformers import AutoModel, AutoTokenizer


class EmbeddingPredictor:
    def __init__(self, encoder, tokenizer):
        self.encoder = encoder
        self.tokenizer = tokenizer

    @torch.no_grad()
    def predict(self, inputs):
        encoded = self.tokenizer(inputs, padding=True, return_tensors="pt")
        outputs = self.encoder(**encoded)  # expect: ML003
        return outputs["last_hidden_state"].mean(1).tolist()


encoder = AutoModel.from_pretrained("bge-small")
predictor = EmbeddingPredictor(encoder, AutoTokenizer.from_pretrained("bge-small"))
print(predictor.predict(["a sentence"]))
