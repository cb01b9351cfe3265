"""What cuBLAS, cuDNN convolutions and cuDNN RNNs take from the caching allocator beyond
the tensors a fake run sees: measured on the GPU, for the model in memlint's estimate
(kernel-side memory). Each probe reads torch.cuda.max_memory_allocated() around one op.

    python kernel_probe.py OUT.json plain       # cuBLAS, RNN reserve, convolutions with cudnn.benchmark off
    python kernel_probe.py OUT.json benchmark   # convolutions with cudnn.benchmark on (a process of its own:
                                                # the chosen algorithms are cached per process)
    python kernel_probe.py OUT.json rnn         # cuDNN RNNs: what a training forward keeps, and the transient
                                                # workspace of forward and backward
    python kernel_probe.py OUT.json sweep-plain  # many convolution shapes, cudnn.benchmark off
    python kernel_probe.py OUT.json sweep-benchmark  # the same shapes, on (autotuning's trial workspace)
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


RNNS = [  # (kind, seq, batch, input, hidden, layers, bidirectional, dtype)
    *[("LSTM", 28, b, 28, 64, 1, False, "float32") for b in (16, 64, 256, 1024, 4096)],
    *[("LSTM", 35, 20, h, h, 2, False, "float32") for h in (200, 650, 1500)],
    ("LSTM", 35, 64, 650, 650, 2, False, "float32"), ("LSTM", 256, 64, 1024, 1024, 2, False, "float32"),
    ("LSTM", 256, 64, 1024, 1024, 2, False, "bfloat16"), ("LSTM", 64, 32, 512, 1024, 3, False, "float32"),
    ("LSTM", 100, 128, 256, 512, 1, True, "float32"), ("LSTM", 50, 512, 64, 128, 4, False, "float32"),
    ("GRU", 35, 64, 650, 650, 2, False, "float32"), ("GRU", 28, 1024, 28, 64, 1, False, "float32"),
    ("RNN", 100, 64, 256, 512, 2, False, "float32"), ("LSTM", 512, 8, 128, 256, 1, False, "float32"),
]


def rnns() -> list:
    """One training forward and backward of each RNN (batch first, input not requiring grad, as an
    embedding-free first layer): the allocator's counters around each, raw, for the model."""
    out = []
    for kind, seq, batch, size, hidden, layers, bidirectional, dtype in RNNS:
        torch.cuda.empty_cache()
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        rnn = getattr(nn, kind)(size, hidden, layers, batch_first=True, bidirectional=bidirectional).cuda()
        rnn = rnn.to(getattr(torch, dtype))
        x = torch.randn(batch, seq, size, device="cuda", dtype=getattr(torch, dtype))
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        y, state = rnn(x)
        torch.cuda.synchronize()
        after_forward, peak_forward = torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated()
        outputs = sum(t.untyped_storage().nbytes() for t in (y, *(state if isinstance(state, tuple) else (state,))))
        g = torch.ones_like(y)
        torch.cuda.synchronize()
        before_backward = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        y.backward(g)
        torch.cuda.synchronize()
        after_backward, peak_backward = torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated()
        params = sum(p.numel() * p.element_size() for p in rnn.parameters())
        out.append({"kind": kind, "seq": seq, "batch": batch, "input": size, "hidden": hidden, "layers": layers,
                    "bidirectional": bidirectional, "dtype": dtype, "module": before - base - x.numel() * x.element_size(),
                    "params": params, "outputs": outputs, "before": before, "after_forward": after_forward,
                    "peak_forward": peak_forward, "before_backward": before_backward, "after_backward": after_backward,
                    "peak_backward": peak_backward})
        del rnn, x, y, state, g
    return out


def sweep_shapes() -> list:
    """A fixed sample of 2-d convolutions across batch, channels, size, kernel, stride, groups."""
    import random

    rng = random.Random(0)
    shapes = []
    while len(shapes) < 160:
        n = rng.choice((1, 8, 32, 64, 128, 256))
        cin = rng.choice((3, 16, 32, 64, 128, 256, 512))
        cout = rng.choice((16, 32, 64, 128, 256, 512))
        k = rng.choice((1, 3, 3, 4, 5, 7))
        stride = rng.choice((1, 1, 2))
        size = rng.choice((4, 7, 8, 14, 16, 28, 32, 56, 64, 112, 224))
        transposed = rng.random() < 0.2
        depthwise = not transposed and rng.random() < 0.15
        if depthwise:
            cout = cin
        if size + 2 * (k // 2) < k or n * max(cin, cout) * size * size * 4 * (4 if transposed else 1) > 2**30:
            continue
        shapes.append((n, cin, cout, k, stride, size, transposed, cin if depthwise else 1))
    return shapes


def sweep(benchmark: bool) -> list:
    torch.backends.cudnn.benchmark = benchmark
    out = []
    for dtype in (torch.float32, torch.bfloat16):
        for n, cin, cout, k, stride, size, transposed, groups in sweep_shapes():
            kind = nn.ConvTranspose2d if transposed else nn.Conv2d
            extra = {"output_padding": stride - 1} if transposed else {}
            conv = kind(cin, cout, k, stride, k // 2, groups=groups, **extra).cuda().to(dtype)
            x = torch.randn(n, cin, size, size, device="cuda", dtype=dtype, requires_grad=True)
            try:
                fwd = _extra(lambda: conv(x))
                y = conv(x)
                g = torch.randn_like(y)
                bwd = _extra(lambda: torch.autograd.grad(y, (x, conv.weight), g))
                again = _extra(lambda: torch.autograd.grad(conv(x), (x, conv.weight), g))
            except RuntimeError as exc:  # noqa: PERF203 - one shape's failure is a result
                out.append({"shape": [n, cin, cout, k, stride, size, transposed, groups], "error": str(exc)[:200]})
                continue
            out.append({"shape": [n, cin, cout, k, stride, size, transposed, groups], "dtype": str(dtype)[6:],
                        "input": x.numel() * x.element_size(), "output": y.numel() * y.element_size(),
                        "weight": conv.weight.numel() * conv.weight.element_size(),
                        "forward_extra": fwd, "backward_extra": bwd, "step_again_extra": again})
            del conv, x, y, g
            torch.cuda.empty_cache()
    return out


if __name__ == "__main__":
    result = {"torch": torch.__version__, "cudnn": torch.backends.cudnn.version(), "gpu": torch.cuda.get_device_name()}
    if sys.argv[2] == "plain":
        result.update(cublas=cublas(), lstm=lstm())
    if sys.argv[2] == "rnn":
        result["rnn"] = rnns()
    if sys.argv[2].startswith("sweep"):
        result["sweep"] = sweep(sys.argv[2] == "sweep-benchmark")
    for dtype in (torch.float32, torch.bfloat16) if sys.argv[2] in ("plain", "benchmark") else ():
        result[f"conv_{sys.argv[2]}_{str(dtype)[6:]}"] = convs(sys.argv[2] == "benchmark", dtype)
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
