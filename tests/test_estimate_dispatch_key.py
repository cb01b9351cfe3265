"""The fake mode's dispatch-cache key built in one pass (`dispatch_key`) lists the same items, in the same
order, as torch's own, so the cache answers exactly the ops it answered before."""

from __future__ import annotations

import torch
from torch._subclasses.fake_tensor import FakeTensorMode, _CacheKeyState

from memlint.estimate import dispatch_key


def _key(function, args):
    """The items a key function appends for `args`, or the name of what it raised (torch's bypass)."""
    result: list = []
    try:
        function(result, args, _CacheKeyState(), [])
    except Exception as exc:  # noqa: BLE001 - the cache's bypass, raised alike by both
        return type(exc).__name__
    return result


def _keys(mode: FakeTensorMode, args) -> tuple:
    torch_key = mode._prep_args_for_hash
    patched = {}
    dispatch_key.install(mode, lambda owner, name, value: patched.setdefault(name, value))
    return _key(patched["_prep_args_for_hash"], args), _key(torch_key, args)


def test_the_same_key_as_torch_for_tensors_of_every_layout_in_memory():
    mode = FakeTensorMode()
    with mode:
        x = torch.randn(4, 3, 8, 8)
        weight = torch.randn(5, 3, requires_grad=True)
        with torch.inference_mode():
            inference = torch.randn(2, 2)
        complex_view = torch.randn(3, 3, dtype=torch.complex64).conj()
    tensors = [x, x.to(memory_format=torch.channels_last), x[:, 1:, ::2], x.transpose(0, 1), x[1], weight,
               weight.t(), inference, complex_view, torch.ops.aten._neg_view(complex_view)]
    for t in tensors:
        ours, theirs = _keys(mode, (t, [t, 2], (1.5, None, True), torch.float16, torch.device("cpu"),
                                    torch.contiguous_format, "mean", torch.Size([2, 3])))
        assert ours == theirs


def test_dicts_and_tensors_of_another_mode_take_torch_own_key():
    mode, other = FakeTensorMode(), FakeTensorMode()
    with other:
        foreign = torch.randn(2)
    ours, theirs = _keys(mode, ({"dim": 1, "keepdim": True},))
    assert ours == theirs and isinstance(ours, list)
    assert _keys(mode, (foreign,)) == ("_BypassDispatchCache", "_BypassDispatchCache")
