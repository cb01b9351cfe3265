"""What CUDA's pointwise losses with a mean or sum keep beside their 0-d result: the memory allocated
right after the call while the result is held, the largest during the call, after backward (which
includes the input's 16 MiB gradient) and once the result is deleted, on 16 MiB float32 inputs.

    python loss_probe.py OUT.json
"""
import json
import sys

import torch
import torch.nn.functional as F

out = {}
n = 16 * 2**20 // 4  # 16 MiB of float32
for name in ("mse_loss", "smooth_l1_loss", "huber_loss", "l1_loss"):
    for reduction in ("mean", "sum"):
        for grad in (True, False):
            torch.cuda.empty_cache(); torch.cuda.synchronize()
            x = torch.randn(n, device="cuda", requires_grad=grad)
            t = torch.randn(n, device="cuda")
            torch.cuda.synchronize()
            base = torch.cuda.memory_allocated()
            torch.cuda.reset_peak_memory_stats()
            loss = getattr(F, name)(x, t, reduction=reduction)
            torch.cuda.synchronize()
            held = torch.cuda.memory_allocated() - base
            peak = torch.cuda.max_memory_allocated() - base
            after_bw = None
            if grad:
                loss.backward()
                torch.cuda.synchronize()
                after_bw = torch.cuda.memory_allocated() - base  # includes x.grad (16 MiB)
            del loss
            torch.cuda.synchronize()
            freed = torch.cuda.memory_allocated() - base
            out[f"{name} {reduction} grad={grad}"] = {"held_MiB": held / 2**20, "peak_MiB": peak / 2**20,
                                                       "after_backward_MiB": after_bw and after_bw / 2**20,
                                                       "after_del_MiB": freed / 2**20}
            del x, t
out["torch"] = torch.__version__
with open(sys.argv[1], "w", encoding="utf-8") as handle:
    json.dump(out, handle, indent=1)
for k, v in out.items():
    print(k, v)
