"""CUDA autocast, emulated for fake tensors that live on the CPU device.

`torch.autocast("cuda")` only sets CUDA's autocast state; the casts are done
by the AutocastCUDA dispatch key, which tensors on the CPU device never
reach, and CPU autocast casts a different list (it keeps layer_norm and
softmax in the input dtype, where CUDA runs them in fp32). So, while CUDA
autocast is on, the calls of CUDA's lists (aten/src/ATen/autocast_mode.cpp)
are cast here, above autograd as the real key is: to the autocast dtype for
matmuls and convolutions, with the fp32 weight copies kept in a cache until
the outermost autocast region ends (the real cache's rule), and to fp32 for
the ops CUDA runs in fp32.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch.nn import _reduction as _Reduction
from torch.utils._pytree import tree_map
from torch.utils.weak import WeakIdKeyDictionary


def _functions(*names: str) -> set:
    found = set()
    for name in names:
        owner, _, attr = name.rpartition(".")
        space = {"torch": torch, "F": F, "Tensor": torch.Tensor, "linalg": torch.linalg}[owner]
        value = getattr(space, attr, None)
        if value is not None:
            found.add(value)
    return found


LOWER = _functions(
    "F.linear", "torch.matmul", "Tensor.matmul", "Tensor.__matmul__", "Tensor.__rmatmul__", "torch.mm", "Tensor.mm",
    "torch.bmm", "Tensor.bmm", "torch.addmm", "Tensor.addmm", "torch.baddbmm", "Tensor.baddbmm", "torch.addbmm",
    "torch.addmv", "torch.addr", "torch.mv", "Tensor.mv", "torch.einsum", "torch.conv1d", "torch.conv2d",
    "torch.conv3d", "torch.conv_transpose1d", "torch.conv_transpose2d", "torch.conv_transpose3d", "torch.convolution",
    "torch.conv_tbc", "torch.prelu", "F.prelu", "torch.chain_matmul", "linalg.multi_dot", "linalg.vecdot",
    "F.scaled_dot_product_attention", "torch.lstm", "torch.gru", "torch.rnn_tanh", "torch.rnn_relu",
    "torch.lstm_cell", "torch.gru_cell", "torch.rnn_tanh_cell", "torch.rnn_relu_cell",
)
FP32 = _functions(
    "torch.acos", "torch.asin", "torch.cosh", "torch.erfinv", "torch.exp", "Tensor.exp", "torch.expm1", "torch.log",
    "Tensor.log", "torch.log10", "torch.log2", "torch.log1p", "torch.reciprocal", "torch.rsqrt", "Tensor.rsqrt",
    "torch.sinh", "torch.tan", "torch.pow", "Tensor.pow", "Tensor.__pow__", "F.softplus", "F.layer_norm",
    "torch.layer_norm", "F.group_norm", "torch.group_norm", "torch.norm", "Tensor.norm", "torch.cosine_similarity",
    "F.poisson_nll_loss", "F.cosine_embedding_loss", "F.nll_loss", "F.hinge_embedding_loss", "F.kl_div", "F.l1_loss",
    "F.smooth_l1_loss", "F.huber_loss", "F.mse_loss", "F.margin_ranking_loss", "F.multilabel_margin_loss",
    "F.soft_margin_loss", "F.triplet_margin_loss", "F.multi_margin_loss", "F.binary_cross_entropy_with_logits",
    "torch.dist", "torch.pdist", "torch.cdist", "torch.renorm", "torch.logsumexp", "Tensor.logsumexp",
    "F.interpolate",
)
# Run in fp32 by passing dtype=float32 (no fp32 copy of the input is made).
FP32_OUT = _functions(
    "torch.softmax", "Tensor.softmax", "F.softmax", "torch.log_softmax", "Tensor.log_softmax", "F.log_softmax",
    "torch.cumsum", "Tensor.cumsum", "torch.cumprod", "Tensor.cumprod", "torch.prod", "Tensor.prod",
    "torch.sum", "Tensor.sum",
)
CROSS_ENTROPY = _functions("F.cross_entropy")

_cache: WeakIdKeyDictionary = WeakIdKeyDictionary()


def clear_cache() -> None:
    _cache.clear()


def _eligible(value) -> bool:
    return isinstance(value, torch.Tensor) and value.is_floating_point() and value.dtype != torch.float64


def _cast(value, dtype: torch.dtype, on_cache):
    if not _eligible(value) or value.dtype == dtype:
        return value
    cacheable = (dtype != torch.float32 and value.dtype == torch.float32 and value.requires_grad and value.is_leaf
                 and not value._is_view() and torch.is_autocast_cache_enabled())
    if cacheable:
        cached = _cache.get(value)
        if cached is None:
            cached = _cache[value] = value.to(dtype)
            on_cache(cached)
        return cached
    return value.to(dtype)


def handle(func, args, kwargs, on_cache):
    """The call under CUDA autocast, or None when autocast leaves it alone."""
    if not torch.is_autocast_enabled("cuda"):
        return None
    if func in LOWER:
        dtype = torch.get_autocast_dtype("cuda")
        cast = tree_map(lambda v: _cast(v, dtype, on_cache), (args, kwargs))
        return func(*cast[0], **cast[1])
    if func in FP32:
        cast = tree_map(lambda v: _cast(v, torch.float32, on_cache), (args, kwargs))
        return func(*cast[0], **cast[1])
    if func in FP32_OUT and "dtype" not in kwargs and args and _eligible(args[0]) and args[0].dtype != torch.float32:
        return func(*args, **kwargs, dtype=torch.float32)
    if func in CROSS_ENTROPY and _eligible(args[0]) and args[0].dtype != torch.float32:
        return _cross_entropy(*args, **kwargs)
    return None


def _cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                   reduction="mean", label_smoothing=0.0):
    # CUDA autocast has no rule for cross_entropy itself: its C++ body (LossNLL.cpp) takes the
    # log-probabilities in the input's own dtype (log_softmax with dtype=self's, which autocast leaves
    # alone), and the nll_loss it calls is on the fp32 list, which casts them: backward keeps both,
    # the low-precision log-probabilities (log_softmax's output) and their fp32 copy (nll_loss's input).
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    dim = 1 if input.dim() > 1 else 0
    logp = F.log_softmax(input, dim, dtype=input.dtype)
    if target.is_floating_point():  # class probabilities: a product with the fp32 target, summed
        if label_smoothing:
            target = target * (1 - label_smoothing) + label_smoothing / logp.shape[dim]
        product = _weighted(logp, weight, dim) * target
        if reduction == "none":
            return -product.sum(dim)
        loss = -product.sum()
        return loss / (logp.numel() / logp.shape[dim]) if reduction == "mean" else loss
    loss = F.nll_loss(logp.float(), target, None if weight is None else weight.float(), None, ignore_index, None,
                      reduction)
    if not label_smoothing:
        return loss
    smooth = (-_weighted(logp, weight, dim)).sum(dim, dtype=torch.float32)
    if reduction == "mean":
        smooth = smooth.mean()
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * loss + smooth * (label_smoothing / logp.shape[dim])


def _weighted(logp, weight, dim: int):
    if weight is None:
        return logp
    shape = [1] * logp.dim()
    shape[dim] = -1
    return logp * weight.view(shape)
