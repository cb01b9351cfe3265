"""CPU predictions on a machine whose torchvision is a CUDA build (PyPI's Linux wheel)
next to a CPU-only torch: its C extension cannot load there, and its fake-kernel
registrations for detection operators (nms, roi_align; none of the benchmark's models
uses them) would fail the import. Those registrations are skipped; nothing else changes.
Not needed with a matching torchvision (the CPU wheel of the PyTorch index)."""
import torch
import torch.library

_register_fake = torch.library.register_fake


def _tolerant(op, *args, **kwargs):
    if isinstance(op, str) and op.startswith("torchvision::"):
        try:
            getattr(torch.ops.torchvision, op.partition("::")[2].split(".")[0]).default
        except (AttributeError, RuntimeError):
            return lambda fn: fn
    return _register_fake(op, *args, **kwargs)


torch.library.register_fake = _tolerant
