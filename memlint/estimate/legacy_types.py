"""The legacy typed CUDA tensors (`torch.cuda.FloatTensor(...)`, `x.type(torch.cuda.FloatTensor)`) on the emulated GPU.

Many scripts written for torch 0.4 to 1.x, still copied today (PyTorch-GAN's), pick
`Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor` and make their batches,
targets and noise with it. On a CPU build of torch these types raise ("Torch not compiled
with CUDA enabled"), so while the GPU is emulated each one is replaced by a callable that
makes the same tensor with `device="cuda"`, and `Tensor.type` accepts it (and the
`"torch.cuda.FloatTensor"` spelling) as a move to the GPU with that dtype.
"""

from __future__ import annotations

from typing import Callable

import torch

_DTYPES = {"FloatTensor": torch.float32, "DoubleTensor": torch.float64, "HalfTensor": torch.float16,
           "BFloat16Tensor": torch.bfloat16, "ByteTensor": torch.uint8, "CharTensor": torch.int8,
           "ShortTensor": torch.int16, "IntTensor": torch.int32, "LongTensor": torch.int64, "BoolTensor": torch.bool}


class LegacyCudaType:
    """`torch.cuda.<Name>Tensor`: `T(2, 3)` (sizes, uninitialised), `T(data)` (a copy of a list, an
    array or a tensor), `T()` (empty), `isinstance(x, T)`."""

    is_cuda = True
    is_sparse = False

    def __init__(self, name: str, dtype: torch.dtype) -> None:
        self.__name__ = name
        self.dtype = dtype

    def __repr__(self) -> str:
        return f"<class 'torch.cuda.{self.__name__}'>"

    def __call__(self, *args, **kwargs) -> torch.Tensor:
        if len(args) == 1 and isinstance(args[0], torch.Size):
            args = tuple(args[0])
        if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return torch.empty(args, dtype=self.dtype, device="cuda")
        return torch.as_tensor(args[0], dtype=self.dtype, device="cuda").clone()

    def __instancecheck__(self, value: object) -> bool:
        return isinstance(value, torch.Tensor) and value.is_cuda and value.dtype == self.dtype


def install(patch: Callable[[object, str, object], None]) -> None:
    """Replace the CUDA tensor types and `Tensor.type` through `patch(owner, name, value)`, which restores them."""
    legacy = {name: LegacyCudaType(name, dtype) for name, dtype in _DTYPES.items()}
    for name, value in legacy.items():
        patch(torch.cuda, name, value)
    original = torch.Tensor.type

    def tensor_type(t: torch.Tensor, dtype=None, non_blocking: bool = False, **kwargs):
        if isinstance(dtype, str) and dtype.startswith("torch.cuda."):
            dtype = legacy.get(dtype[len("torch.cuda."):], dtype)
        if isinstance(dtype, LegacyCudaType):
            return t.to(device="cuda", dtype=dtype.dtype, non_blocking=non_blocking)
        if dtype is None and t.is_cuda:  # the name a GPU tensor's type has there
            return "torch.cuda." + original(t).rsplit(".", 1)[-1]
        return original(t, dtype, non_blocking, **kwargs)

    patch(torch.Tensor, "type", tensor_type)
