# The twin of good_kv_cache_reset_in_training.py: the cache grows on every call and nothing in the
# class ever resets it, so each training step's keys (with their graphs) stay.
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.W_key = nn.Linear(d, d)
        self.cache_k = torch.zeros(1, 0, d)

    def forward(self, x):
        keys_new = self.W_key(x)
        self.cache_k = torch.cat([self.cache_k, keys_new], dim=1)  # expect: ML001
        return self.cache_k
