# The twin of good_model_moved_to_cpu_fallback.py: `.to(output_device)` with the default None moves
# nothing, so every batch's embeddings stay on the device.
from typing import List, Optional

import torch


class Encoder(torch.nn.Module):
    @torch.no_grad()
    def encode(self, batches, output_device: Optional[str] = None):
        embs: List[torch.Tensor] = []
        for tokens in batches:
            emb = self(input_ids=tokens.to(self.device)).to(output_device)
            embs.append(emb)  # expect: ML005
        return torch.cat(embs, dim=0)
