# A KV cache grows under `if use_cache:` and is reset (`self.cache_k, self.cache_v = None, None`)
# whenever the cache is off: a tuple assignment resets each of its targets (LLMs-from-scratch).
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.W_key = nn.Linear(d, d)
        self.W_value = nn.Linear(d, d)
        self.register_buffer("cache_k", None, persistent=False)
        self.register_buffer("cache_v", None, persistent=False)

    def forward(self, x, use_cache=False):
        keys_new, values_new = self.W_key(x), self.W_value(x)
        if use_cache:
            if self.cache_k is None:
                self.cache_k, self.cache_v = keys_new, values_new
            else:
                self.cache_k = torch.cat([self.cache_k, keys_new], dim=1)
                self.cache_v = torch.cat([self.cache_v, values_new], dim=1)
            return self.cache_k, self.cache_v
        self.cache_k, self.cache_v = None, None
        return keys_new, values_new
