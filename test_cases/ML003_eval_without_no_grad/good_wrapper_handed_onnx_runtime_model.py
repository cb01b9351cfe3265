# Look-alike of bad_wrapper_handed_torch_model_predicts.py: the encoder handed to the predictor is an
# optimum `ORTModelForFeatureExtraction`, which runs an ONNX Runtime session, not a torch module:
# calling it records no autograd graph.
from optimum.onnxruntime import ORTModelForFeatureExtraction
from transformers import AutoTokenizer


class EmbeddingPredictor:
    def __init__(self, encoder, tokenizer):
        self.encoder = encoder
        self.tokenizer = tokenizer

    def predict(self, inputs):
        encoded = self.tokenizer(inputs, padding=True, return_tensors="pt")
        outputs = self.encoder(**encoded)
        return outputs["last_hidden_state"].mean(1).tolist()


encoder = ORTModelForFeatureExtraction.from_pretrained("bge-small-onnx", provider="CUDAExecutionProvider")
predictor = EmbeddingPredictor(encoder, AutoTokenizer.from_pretrained("bge-small-onnx"))
print(predictor.predict(["a sentence"]))
