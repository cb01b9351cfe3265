"""What each cuDNN convolution takes from the caching allocator beyond its tensors, per call
and per direction (forward, backward data, backward weight), with cudnn.benchmark off or on:
the data behind the convolution workspace model of memlint's estimate.

    python conv_probe.py OUT.json models plain|benchmark   # the benchmark scripts' networks
    python conv_probe.py OUT.json sweep plain|benchmark [SECONDS]  # a grid of shapes, fp32 and bf16
    python conv_probe.py OUT.json sweep-cl plain|benchmark [SECONDS]  # the same grid channels-last, fp32, fp16, bf16
    python conv_probe.py OUT.json sweep-fullres plain|benchmark [SECONDS]  # image-to-image layers at full resolution

Every convolution runs under a dispatch mode that splits `convolution_backward` into one
call per gradient and records, for each call, the allocator's events between a marker
allocation and the end of the call (torch.cuda.memory history, no stacks): with
cudnn.benchmark on, the first call of a shape allocates the trial workspace that PyTorch
hands to cuDNN's Find (the largest workspace of any candidate plan that fits in the free
memory, Conv_v8.cpp `generate_and_filter_plans`), frees it, and then allocates the chosen
plan's workspace; with it off, only the chosen plan's. The free memory before the call is
recorded too (the bound that PyTorch applies).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import torch
from torch.utils._python_dispatch import TorchDispatchMode

HERE = os.path.dirname(os.path.abspath(__file__))
MARK = 512 * 2047  # a small-pool size no probe tensor has, so the trace can be cut per call
aten = torch.ops.aten


def _events_since_mark() -> list:
    trace = torch.cuda.memory._snapshot()["device_traces"][0]
    last = max(i for i, e in enumerate(trace) if e["action"] == "alloc" and e["size"] == MARK)
    return [[e["action"], e["size"]] for e in trace[last + 1:] if e["size"] != MARK]


def _call(fn) -> tuple[object, dict]:
    torch.cuda.synchronize()
    free = torch.cuda.mem_get_info()[0]
    before, reserved = torch.cuda.memory_allocated(), torch.cuda.memory_reserved()
    marker = torch.empty(MARK, dtype=torch.uint8, device="cuda")
    del marker
    started = time.perf_counter()
    out = fn()
    torch.cuda.synchronize()
    return out, {"seconds": round(time.perf_counter() - started, 4), "free": free, "allocated_before": before,
                 "reserved_before": reserved, "events": _events_since_mark()}


def _params(args) -> dict:
    stride, padding, dilation, transposed, output_padding, groups = args
    return {"stride": list(stride), "padding": list(padding), "dilation": list(dilation), "transposed": bool(transposed),
            "output_padding": list(output_padding), "groups": int(groups)}


def _desc(t: torch.Tensor) -> dict:
    return {"shape": list(t.shape), "dtype": str(t.dtype)[6:],
            "channels_last": t.dim() == 4 and t.is_contiguous(memory_format=torch.channels_last)
            and not t.is_contiguous()}


class Recorder(TorchDispatchMode):
    """Records every convolution of the program it wraps, one entry per cuDNN direction."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[dict] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is aten.convolution.default:
            x, w, bias, *rest = args
            out, info = _call(lambda: func(*args, **kwargs))
            self.calls.append({"direction": "forward", "input": _desc(x), "weight": _desc(w),
                               "output": _desc(out), **_params(rest), **info})
            return out
        if func is aten.convolution_backward.default:
            grad, x, w, bias_sizes, stride, padding, dilation, transposed, output_padding, groups, mask = args
            rest = (stride, padding, dilation, transposed, output_padding, groups)
            results = [None, None, None]
            for index, direction in ((0, "backward_data"), (1, "backward_weight")):
                if not mask[index]:
                    continue
                one = [i == index for i in range(3)]
                out, info = _call(lambda: func(grad, x, w, bias_sizes, *rest, one))
                results[index] = out[index]
                self.calls.append({"direction": direction, "input": _desc(x), "weight": _desc(w),
                                   "output": _desc(grad), **_params(rest), **info})
            if mask[2]:
                results[2] = func(grad, x, w, bias_sizes, *rest, [False, False, True])[2]
            return tuple(results)
        return func(*args, **kwargs)


def _dcgan(batch: int):
    import torch.nn as nn

    g = nn.Sequential(nn.ConvTranspose2d(100, 512, 4, 1, 0, bias=False), nn.BatchNorm2d(512), nn.ReLU(True),
                      nn.ConvTranspose2d(512, 256, 4, 2, 1, bias=False), nn.BatchNorm2d(256), nn.ReLU(True),
                      nn.ConvTranspose2d(256, 128, 4, 2, 1, bias=False), nn.BatchNorm2d(128), nn.ReLU(True),
                      nn.ConvTranspose2d(128, 64, 4, 2, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU(True),
                      nn.ConvTranspose2d(64, 3, 4, 2, 1, bias=False), nn.Tanh())
    d = nn.Sequential(nn.Conv2d(3, 64, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, True),
                      nn.Conv2d(64, 128, 4, 2, 1, bias=False), nn.BatchNorm2d(128), nn.LeakyReLU(0.2, True),
                      nn.Conv2d(128, 256, 4, 2, 1, bias=False), nn.BatchNorm2d(256), nn.LeakyReLU(0.2, True),
                      nn.Conv2d(256, 512, 4, 2, 1, bias=False), nn.BatchNorm2d(512), nn.LeakyReLU(0.2, True),
                      nn.Conv2d(512, 1, 4, 1, 0, bias=False), nn.Sigmoid())
    g, d = g.cuda(), d.cuda()

    def step():
        real = torch.randn(batch, 3, 64, 64, device="cuda")
        d(real).mean().backward()
        fake = g(torch.randn(batch, 100, 1, 1, device="cuda"))
        d(fake.detach()).mean().backward()
        d(fake).mean().backward()

    return step


def _classifier(name: str, batch: int, size: int = 224, channels: int = 3, bf16: bool = False):
    if name == "mnist":
        import torch.nn as nn

        model = nn.Sequential(nn.Conv2d(1, 32, 3, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 1), nn.ReLU(), nn.MaxPool2d(2),
                              nn.Flatten(), nn.Linear(9216, 128), nn.ReLU(), nn.Linear(128, 10))
    elif name.startswith("tv_"):
        import torchvision

        model = getattr(torchvision.models, name[3:])()
    else:
        import timm

        model = timm.create_model(name)
    model = model.cuda().train()

    def step():
        x = torch.randn(batch, channels, size, size, device="cuda")
        if bf16:
            with torch.autocast("cuda", dtype=torch.bfloat16):
                out = model(x)
        else:  # no autocast of its own (`_amp` may have one around it)
            out = model(x)
        out.float().mean().backward()

    return step


def _cifar(arch: str, batch: int):
    """The CIFAR-10 networks of the widely copied training scripts: a ResNet-18 with a 3x3 stride-1 stem and
    no max-pool, and VGG-16 (3x3 convolutions, batch norm), on 32x32 images."""
    import torch.nn as nn

    if arch == "vgg16":
        layers, cin = [], 3
        for v in (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"):
            if v == "M":
                layers.append(nn.MaxPool2d(2))
            else:
                layers += [nn.Conv2d(cin, v, 3, padding=1), nn.BatchNorm2d(v), nn.ReLU(True)]
                cin = v
        model = nn.Sequential(*layers, nn.Flatten(), nn.Linear(512, 10))
    else:
        def block(cin, cout, stride):
            main = nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                                 nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
            short = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                     if stride != 1 or cin != cout else nn.Identity())

            class Block(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.main, self.short = main, short

                def forward(self, x):
                    return torch.relu(self.main(x) + self.short(x))

            return Block()

        stages, cin = [], 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            stages += [block(cin, cout, stride), block(cout, cout, 1)]
            cin = cout
        model = nn.Sequential(nn.Conv2d(3, 64, 3, 1, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU(), *stages,
                              nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 10))
    model = model.cuda().train()

    def step():
        model(torch.randn(batch, 3, 32, 32, device="cuda")).mean().backward()

    return step


def _espcn(batch: int, factor: int, size: int):
    # pytorch/examples' super_resolution network (ESPCN): full-resolution layers on the Y channel, then a
    # pixel shuffle
    import torch.nn as nn

    model = nn.Sequential(nn.Conv2d(1, 64, 5, 1, 2), nn.ReLU(), nn.Conv2d(64, 64, 3, 1, 1), nn.ReLU(),
                          nn.Conv2d(64, 32, 3, 1, 1), nn.ReLU(), nn.Conv2d(32, factor ** 2, 3, 1, 1),
                          nn.PixelShuffle(factor)).cuda()

    def step():
        model(torch.randn(batch, 1, size, size, device="cuda")).mean().backward()

    return step


def _public(source: str, folder: str = "") -> str:
    """A public script's folder as sources.py extracts it (public/src), on sys.path, with torch.hub's cache
    where sources.py data saved the pretrained weights it loads (random, of the same architecture)."""
    root = os.path.join(HERE, "public", "src", source)
    os.environ["TORCH_HOME"] = os.path.join(root, "torch_home" if not folder else os.path.join(folder, "..", "torch_home"))
    sys.path.insert(0, os.path.join(root, folder))
    return root


def _style_transfer(batch: int, size: int):
    # pytorch/examples' fast_neural_style: its transformer network (reflection-padded full-resolution layers,
    # instance norm, upsampling) trained through a frozen VGG-16's features of the output and of the input
    _public("examples", "fast_neural_style/neural_style")
    from transformer_net import TransformerNet
    from vgg import Vgg16

    net, vgg = TransformerNet().cuda(), Vgg16(requires_grad=False).cuda()

    def step():
        x = torch.rand(batch, 3, size, size, device="cuda") * 255
        features = vgg(net(x))
        target = vgg(x)
        sum(((a - b) ** 2).mean() for a, b in zip(features, target)).backward()

    return step


def _ssd300(batch: int):
    # the SSD tutorial's SSD300 (VGG-16 base at 300x300, dilated conv6, auxiliary and prediction convolutions)
    _public("ssd_tutorial")
    from model import SSD300

    model = SSD300(n_classes=21).cuda().train()

    def step():
        locs, scores = model(torch.randn(batch, 3, 300, 300, device="cuda"))
        (locs.mean() + scores.mean()).backward()

    return step


def _sd_vae_encode(batch: int, size: int = 256):
    # Stable Diffusion's VAE encoder (sd-vae-ft-ema's config) as latent-diffusion trainers run it (DiT's
    # train.py: each step's images encoded under no_grad): a forward only, at full resolution with 128 channels
    _public("diffusers", "src")
    from diffusers.models import AutoencoderKL

    vae = AutoencoderKL(down_block_types=("DownEncoderBlock2D",) * 4, up_block_types=("UpDecoderBlock2D",) * 4,
                        block_out_channels=(128, 256, 512, 512), layers_per_block=2, latent_channels=4,
                        sample_size=size).cuda()

    def step():
        with torch.no_grad():
            vae.encode(torch.randn(batch, 3, size, size, device="cuda")).latent_dist.sample()

    return step


def _amp(step_factory, dtype=torch.float16):
    step = step_factory()

    def amp_step():
        with torch.autocast("cuda", dtype=dtype):
            step()

    return amp_step


MODELS = {
    "dcgan-b64": lambda: _dcgan(64), "dcgan-b256": lambda: _dcgan(256),
    "timm-resnet18-b32": lambda: _classifier("resnet18", 32), "timm-effnet-b0-b32": lambda: _classifier("efficientnet_b0", 32),
    "timm-vit-s16-bf16-b32": lambda: _classifier("vit_small_patch16_224", 32, bf16=True),
    "imagenet-resnet18-b32": lambda: _classifier("tv_resnet18", 32), "imagenet-resnet50-b32": lambda: _classifier("tv_resnet50", 32),
    "imagenet-mobilenet-b64": lambda: _classifier("tv_mobilenet_v2", 64),
    "mnist-b64": lambda: _classifier("mnist", 64, 28, 1), "mnist-b1024": lambda: _classifier("mnist", 1024, 28, 1),
    # timm's benchmark.py trains at the model's test size (resnet18: 288)
    "timm-resnet18-288-b32": lambda: _classifier("resnet18", 32, 288),
    # common ImageNet batch sizes
    **{f"tv-{arch}-b{n}": (lambda arch=arch, n=n: _classifier(f"tv_{arch}", n))
       for arch in ("resnet18", "resnet50") for n in (64, 128, 256)},
    **{f"tv-mobilenet_v2-b{n}": (lambda n=n: _classifier("tv_mobilenet_v2", n)) for n in (32, 128)},
    # CIFAR-10 scripts (batch 128, their usual default) and mixed precision (fp16 autocast) ImageNet training
    **{f"cifar-{arch}-b{n}": (lambda arch=arch, n=n: _cifar(arch, n)) for arch in ("resnet18", "vgg16") for n in (64, 128, 256)},
    **{f"amp-tv-{arch}-b{n}": (lambda arch=arch, n=n: _amp(lambda: _classifier(f"tv_{arch}", n)))
       for arch in ("resnet18", "resnet50") for n in (32, 64, 128, 256)},
    # pytorch/examples' super_resolution (the fifth first look)
    "superres-espcn-x3-b4": lambda: _espcn(4, 3, 85), "superres-espcn-x4-b64": lambda: _espcn(64, 4, 64),
    # the seventh first look: VGG-16 (a detection base and a perceptual loss's network) at common batches,
    # fast_neural_style's networks (its README's batch 4 at 256 pixels, and 8 at 512), SSD300 at its batch 8
    **{f"tv-vgg16-b{n}": (lambda n=n: _classifier("tv_vgg16", n)) for n in (16, 32)},
    "style-transfer-b4-256": lambda: _style_transfer(4, 256), "style-transfer-b8-512": lambda: _style_transfer(8, 512),
    "ssd300-b8": lambda: _ssd300(8),
    # the eighth first look: Stable Diffusion's VAE encoder at 256 pixels (DiT's images), at common batches
    **{f"sd-vae-encode-b{n}": (lambda n=n: _sd_vae_encode(n)) for n in (8, 16, 32, 64)},
    # the ninth first look: accelerate's cv_example (timm's resnet50d at its batch 64, fp32 and bf16 autocast)
    "timm-resnet50d-b64": lambda: _classifier("resnet50d", 64),
    "timm-resnet50d-bf16-b64": lambda: _classifier("resnet50d", 64, bf16=True),
}


def run_model(name: str) -> dict:
    step = MODELS[name]()
    torch.cuda.memory._record_memory_history(max_entries=20000, context=None, stacks="python")
    recorder = Recorder()
    result = {"model": name, "steps": []}
    for _ in range(2):  # the second step: the cached plans' workspaces only
        with recorder:
            step()
        result["steps"].append(recorder.calls)
        recorder.calls = []
    return result


def sweep_shapes() -> list:
    """(batch, in, out, kernel, stride, padding, size, transposed, groups): typical layers at several
    batch sizes, so that each term of the workspace can be seen scaling."""
    bases = [  # (in, out, kernel, stride, padding, size, transposed, groups)
        (3, 64, 7, 2, 3, 224, False, 1), (64, 64, 3, 1, 1, 56, False, 1), (128, 128, 3, 1, 1, 28, False, 1),
        (256, 256, 3, 1, 1, 14, False, 1), (512, 512, 3, 1, 1, 7, False, 1), (64, 128, 3, 2, 1, 56, False, 1),
        (256, 64, 1, 1, 0, 56, False, 1), (1024, 256, 1, 1, 0, 14, False, 1), (64, 128, 1, 2, 0, 56, False, 1),
        (32, 32, 3, 1, 1, 112, False, 32), (96, 96, 3, 2, 1, 112, False, 96), (240, 240, 5, 1, 2, 28, False, 240),
        (3, 384, 16, 16, 0, 224, False, 1), (1, 32, 3, 1, 0, 28, False, 1), (32, 64, 3, 1, 0, 26, False, 1),
        (3, 64, 4, 2, 1, 64, False, 1), (64, 128, 4, 2, 1, 32, False, 1), (256, 512, 4, 2, 1, 8, False, 1),
        (100, 512, 4, 1, 0, 1, True, 1), (512, 256, 4, 2, 1, 4, True, 1), (256, 128, 4, 2, 1, 8, True, 1),
        (128, 64, 4, 2, 1, 16, True, 1), (64, 3, 4, 2, 1, 32, True, 1), (16, 33, 5, 1, 2, 50, False, 1),
        (48, 80, 3, 1, 1, 40, False, 1), (128, 256, 5, 1, 2, 32, False, 1),
    ]
    return [(n, *base) for base in bases for n in (1, 8, 32, 128)]


def fullres_shapes() -> list:
    """Layers of image-to-image networks (super-resolution, denoising, segmentation heads), which keep
    the input's resolution: few channels on many pixels, where the grid above has many channels on
    few. Sizes between the common crops, so that no script's own shape needs to be in the table."""
    bases = [  # (in, out, kernel, stride, padding, transposed, groups)
        (1, 64, 5, 1, 2, False, 1), (3, 64, 5, 1, 2, False, 1), (1, 64, 9, 1, 4, False, 1), (3, 64, 3, 1, 1, False, 1),
        (64, 64, 3, 1, 1, False, 1), (64, 32, 3, 1, 1, False, 1), (64, 32, 5, 1, 2, False, 1), (32, 9, 3, 1, 1, False, 1),
        (32, 16, 3, 1, 1, False, 1), (32, 1, 5, 1, 2, False, 1), (64, 3, 3, 1, 1, False, 1), (32, 32, 3, 1, 1, False, 1),
    ]
    return [(n, cin, cout, k, stride, pad, size, transposed, groups)
            for cin, cout, k, stride, pad, transposed, groups in bases for size in (48, 72, 96, 128) for n in (1, 4, 16, 64)]


def run_sweep(budget: float, channels_last: bool = False, shapes: list | None = None) -> list:
    torch.cuda.memory._record_memory_history(max_entries=2000, context=None, stacks="python")
    recorder = Recorder()
    started = time.perf_counter()
    out = []
    layout = torch.channels_last if channels_last else torch.contiguous_format
    dtypes = (torch.float32, torch.float16, torch.bfloat16) if channels_last else (torch.float32, torch.bfloat16)
    for dtype in dtypes:
        for n, cin, cout, k, stride, pad, size, transposed, groups in shapes or sweep_shapes():
            if time.perf_counter() - started > budget:
                return out
            if n * max(cin, cout) * size * size * 4 * (16 if transposed else 1) > 2**30:
                continue
            x = torch.randn(n, cin, size, size, device="cuda", dtype=dtype).to(memory_format=layout).requires_grad_()
            w_shape = (cin, cout // groups, k, k) if transposed else (cout, cin // groups, k, k)
            w = torch.randn(w_shape, device="cuda", dtype=dtype).to(memory_format=layout).requires_grad_()
            try:
                with recorder:
                    y = torch.ops.aten.convolution(x, w, None, [stride] * 2, [pad] * 2, [1, 1], transposed,
                                                   [stride - 1 if transposed else 0] * 2, groups)
                    torch.autograd.grad(y, (x, w), torch.ones_like(y))
            except RuntimeError as exc:  # one shape's failure is a result
                out.append({"shape": [n, cin, cout, k, stride, pad, size, transposed, groups], "dtype": str(dtype)[6:],
                            "error": str(exc)[:200]})
            for call in recorder.calls:
                out.append({"shape": [n, cin, cout, k, stride, pad, size, transposed, groups], **call})
            recorder.calls = []
            del x, w
            y = None
            torch.cuda.empty_cache()
    return out


if __name__ == "__main__":
    path, what, mode = sys.argv[1:4]
    torch.backends.cudnn.benchmark = mode == "benchmark"
    header = {"torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
              "gpu": torch.cuda.get_device_name(), "total": torch.cuda.mem_get_info()[1], "mode": mode}
    if what == "model":  # one network, in this process (the plan cache is per process)
        result = {**header, **run_model(sys.argv[4])}
    elif what == "models":
        result = {**header, "models": []}
        for name in [m for m in MODELS if not sys.argv[4:] or m in sys.argv[4:]]:
            part = f"/tmp/conv_probe_{mode}_{name}.json"
            proc = subprocess.run([sys.executable, __file__, part, "model", mode, name],
                                  capture_output=True, text=True, timeout=300)
            if proc.returncode:
                result["models"].append({"model": name, "error": proc.stderr[-2000:]})
                continue
            with open(part, encoding="utf-8") as handle:
                result["models"].append(json.load(handle))
            print(name, "done", flush=True)
    else:
        shapes = fullres_shapes() if what == "sweep-fullres" else None
        result = {**header, "sweep": run_sweep(float(sys.argv[4]) if len(sys.argv) > 4 else 240.0, what == "sweep-cl", shapes)}
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(result, handle)
