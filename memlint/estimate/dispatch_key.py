"""The fake mode's dispatch-cache key, computed in one pass for the common arguments.

FakeTensorMode answers an op it has seen on the same metadata from its cache; the key lists
each argument's type and value, and for a fake tensor its metadata (`TensorMetadata`, flattened).
Torch builds that metadata as a dataclass, asks each tensor several times whether it is sparse,
and flattens the dataclass field by field: a fifth of a fake step's CPU time. `install` gives the
mode a key function that appends the same items, in the same order, for fake tensors of the
mode with a strided layout and no symbolic sizes, and for plain Python values; anything else
(sparse and symbolic tensors, functions, graphs, dicts) takes torch's own function, which also
decides when the cache is bypassed.
"""

from __future__ import annotations

import torch
from torch._prims_common import suggest_memory_format
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode

# Values torch's key appends as their type and themselves (its last branch).
_PLAIN = (int, float, bool, str, type(None), torch.dtype, torch.device, torch.layout, torch.memory_format)


def install(mode: FakeTensorMode, patch) -> None:
    """Give `mode` the one-pass key (`patch(owner, name, value)` restores on exit)."""
    torch_key = mode._prep_args_for_hash

    def key(result: list, args, state, id_hashed_objects: list) -> None:
        if isinstance(args, dict):
            torch_key(result, args, state, id_hashed_objects)
            return
        if isinstance(args, (list, tuple)):
            result.append(type(args))
            result.append(f"length_{len(args)}")
        for arg in args:
            kind = type(arg)
            if kind in _PLAIN:
                result.append(kind)
                result.append(arg)
            elif kind is FakeTensor and arg.fake_mode is mode and arg.constant is None \
                    and arg.layout is torch.strided and not arg._has_symbolic_sizes_strides:
                _tensor_key(result, arg)
            elif kind is list or kind is tuple:
                key(result, arg, state, id_hashed_objects)
            else:
                torch_key(result, iter((arg,)), state, id_hashed_objects)  # an iterator: no type and length

    patch(mode, "_prep_args_for_hash", key)


def _tensor_key(result: list, t: FakeTensor) -> None:
    """`extract_tensor_metadata(t)._flatten_into(result, ...)` for a strided tensor without symbolic sizes."""
    memory_format = suggest_memory_format(t)
    if not t.is_contiguous(memory_format=memory_format):
        memory_format = None
    shape, stride = t.shape, t.stride()
    result.append(t.dtype)
    result.append(torch.Size)
    result.append(f"length_{len(shape)}")
    for n in shape:
        result.append(int)
        result.append(n)
    result.append(tuple)
    result.append(f"length_{len(stride)}")
    for n in stride:
        result.append(int)
        result.append(n)
    result += (t.device, t.layout, memory_format, t.storage_offset(), t.untyped_storage().nbytes(),
               t.requires_grad, t.is_quantized, t.is_conj(), t.is_neg(), t.is_inference(), False, None, None, None)
