"""What cuBLAS, cuDNN convolutions and cuDNN RNNs take from the caching allocator beyond
the tensors a fake run sees: measured on the GPU, for the model in memlint's estimate
(kernel-side memory). Each probe reads torch.cuda.max_memory_allocated() around one op.

    python kernel_probe.py OUT.json plain       # cuBLAS, RNN reserve, convolutions with cudnn.benchmark off
    python kernel_probe.py OUT.json benchmark   # convolutions with cudnn.benchmark on (a process of its own:
                                                # the chosen algorithms are cached per process)
"""

from __future__ import annotations

import json
import sys

import torch
import torch.nn as nn

MIB = 2**20


def _extra(fn) -> int:
    """Peak bytes over what was allocated before the call and what it left allocated after."""
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    out = fn()
    torch.cuda.synchronize()
    after = torch.cuda.memory_allocated()
    del out
    return torch.cuda.max_memory_allocated() - max(before, after)


def cublas() -> dict:
    torch._C._cuda_clearCublasWorkspaces()
    a = torch.randn(256, 256, device="cuda")
    before = torch.cuda.memory_allocated()
    c = a @ a
    fp32 = torch.cuda.memory_allocated() - before - c.untyped_storage().nbytes()
    b = a.bfloat16()
    before = torch.cuda.memory_allocated()
    d = b @ b
    bf16 = torch.cuda.memory_allocated() - before - d.untyped_storage().nbytes()
    return {"first_matmul_fp32": fp32, "then_bf16": bf16}


CONVS = [  # (name, batch, in, out, kernel, stride, size, transposed)
    ("resnet-stem", 32, 3, 64, 7, 2, 224, False), ("resnet-3x3-64", 32, 64, 64, 3, 1, 56, False),
    ("resnet-3x3-256", 32, 256, 256, 3, 1, 14, False), ("resnet-1x1-1024", 32, 1024, 256, 1, 1, 14, False),
    ("dcgan-d1-b64", 64, 3, 64, 4, 2, 64, False), ("dcgan-d2-b64", 64, 64, 128, 4, 2, 32, False),
    ("dcgan-g-b64", 64, 512, 256, 4, 2, 4, True), ("dcgan-d1-b256", 256, 3, 64, 4, 2, 64, False),
    ("dcgan-g-b256", 256, 512, 256, 4, 2, 4, True), ("mnist-3x3", 1024, 32, 64, 3, 1, 26, False),
]


def convs(benchmark: bool, dtype: torch.dtype) -> dict:
    torch.backends.cudnn.benchmark = benchmark
    out = {}
    for name, n, cin, cout, k, s, size, transposed in CONVS:
        kind = nn.ConvTranspose2d if transposed else nn.Conv2d
        conv = kind(cin, cout, k, s, 1).cuda().to(dtype)
        x = torch.randn(n, cin, size, size, device="cuda", dtype=dtype, requires_grad=True)
        fwd = _extra(lambda: conv(x))
        y = conv(x)
        g = torch.randn_like(y)
        bwd = _extra(lambda: torch.autograd.grad(y, (x, conv.weight), g))
        again = _extra(lambda: conv(x))  # after autotuning: the chosen algorithm's workspace only
        out[name] = {"input": x.numel() * x.element_size(), "output": y.numel() * y.element_size(),
                     "forward_extra": fwd, "backward_extra": bwd, "forward_again": again}
        del conv, x, y, g
        torch.cuda.empty_cache()
    return out


def lstm() -> dict:
    out = {}
    for seq, batch, emb, hidden, layers in ((35, 20, 200, 200, 2), (35, 64, 650, 650, 2), (28, 64, 28, 64, 1),
                                            (28, 1024, 28, 64, 1), (64, 32, 512, 1024, 3)):
        rnn = nn.LSTM(emb, hidden, layers).cuda()
        x = torch.randn(seq, batch, emb, device="cuda", requires_grad=True)
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        y, (h, c) = rnn(x)
        torch.cuda.synchronize()
        kept = torch.cuda.memory_allocated() - before - sum(t.numel() * t.element_size() for t in (y, h, c))
        out[f"s{seq}-b{batch}-e{emb}-h{hidden}-l{layers}"] = {
            "seq": seq, "batch": batch, "input": emb, "hidden": hidden, "layers": layers, "kept_by_forward": kept}
        del rnn, x, y, h, c
        torch.cuda.empty_cache()
    return out


if __name__ == "__main__":
    result = {"torch": torch.__version__, "cudnn": torch.backends.cudnn.version(), "gpu": torch.cuda.get_device_name()}
    if sys.argv[2] == "plain":
        result.update(cublas=cublas(), lstm=lstm())
    for dtype in (torch.float32, torch.bfloat16):
        result[f"conv_{sys.argv[2]}_{str(dtype)[6:]}"] = convs(sys.argv[2] == "benchmark", dtype)
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
