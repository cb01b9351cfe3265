# An embedding endpoint: the output's hidden states are reduced with torch and handed back as a
# Python list, so the graph the forward records is never wanted.
import torch


class ModelWorker:
    def __init__(self, model, tokenizer, device):
        self.model, self.tokenizer, self.device = model, tokenizer, device
        self.model.eval()

    def get_embeddings(self, text):
        input_ids = self.tokenizer.encode(text, return_tensors="pt").to(self.device)
        model_output = self.model(input_ids, output_hidden_states=True)  # expect: ML003
        if input_ids.shape[1] > 512:
            data = model_output.hidden_states[-1].transpose(0, 1)[0]
        else:
            data = model_output.hidden_states[-1][0]
        embedding = torch.mean(data, dim=0)
        return {"embedding": embedding.tolist(), "token_num": int(input_ids.shape[1])}
