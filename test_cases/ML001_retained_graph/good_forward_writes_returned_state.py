# An RWKV-style attention layer writes its new recurrent state into the `state` tensors it was
# handed and returns them (transformers' modeling_rwkv): like a KV cache, what the caller does
# with the returned state is the caller's to keep or drop; nothing outlives a step here.
import torch
import torch.nn as nn


class RecurrentAttention(nn.Module):
    def __init__(self, hidden, layer_id):
        super().__init__()
        self.layer_id = layer_id
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.output = nn.Linear(hidden, hidden)

    def forward(self, hidden, state=None, use_cache=False):
        key = self.key(hidden)
        value = self.value(hidden)
        layer_state = (key[:, -1], value[:, -1]) if use_cache else None
        if layer_state is not None:
            state[0][:, :, self.layer_id] = layer_state[0]
            state[1][:, :, self.layer_id] = layer_state[1]
        return self.output(key * value), state
