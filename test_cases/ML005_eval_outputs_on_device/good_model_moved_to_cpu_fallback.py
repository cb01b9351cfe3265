# An out-of-memory fallback moves the model to the CPU before encoding the batch again: the
# fallback's embeddings are host tensors (pytorch_geometric's SentenceTransformer.encode). The
# normal branch keeps them where `output_device` says, default None: on the device (its twin,
# bad_encode_keeps_device_embeddings.py).
from typing import List, Optional

import torch


class Encoder(torch.nn.Module):
    @torch.no_grad()
    def encode(self, batches, output_device: Optional[str] = None):
        embs: List[torch.Tensor] = []
        for tokens in batches:
            try:
                embs.append(torch.zeros(1))
                raise RuntimeError
            except RuntimeError:
                previous_device = self.device
                self.model = self.model.to("cpu")
                emb = self(input_ids=tokens).to(output_device)
                embs.append(emb)
                self.model = self.model.to(previous_device)
        return torch.cat(embs, dim=0)
