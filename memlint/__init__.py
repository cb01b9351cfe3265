"""memlint: find GPU memory leaks in PyTorch training code, statically."""

__version__ = "0.2.0"
