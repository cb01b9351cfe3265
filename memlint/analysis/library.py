"""Library models as data: what a third-party call does to the values it touches.

Each entry says, for one method, function or builtin, what its result is
relative to its receiver or argument: whether autograd history survives
("keep"), is cut ("cut"), where the result lives ("same", "host") and what
it is ("tensor", "number", "sequence", "ndarray", "same"). The analysis
(`flow.summaries`, `provenance`, `loops`) reads these tables and nothing
here is code, so a reader can review the models like a stub file.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Model(NamedTuple):
    history: str  # "cut": the result has no autograd history; "keep": it has the input's
    location: str  # "host": moved off the device; "same": where the input was
    kind: str  # "tensor", "number", "sequence", "ndarray", "same"


# Tensor methods, by name, on a receiver that is (or may be) a tensor.
TENSOR_METHODS: dict[str, Model] = {
    "detach": Model("cut", "same", "tensor"),
    "item": Model("cut", "host", "number"),
    "tolist": Model("cut", "host", "sequence"),
    "numpy": Model("cut", "host", "ndarray"),
    "cpu": Model("keep", "host", "tensor"),
    "clone": Model("keep", "same", "tensor"),
    # dtype casts keep the device: `.cpu().to(torch.float)` stays on the host
    "float": Model("keep", "same", "tensor"),
    "half": Model("keep", "same", "tensor"),
    "double": Model("keep", "same", "tensor"),
    "bfloat16": Model("keep", "same", "tensor"),
    "long": Model("cut", "same", "tensor"),
    "int": Model("cut", "same", "tensor"),
    "bool": Model("cut", "same", "tensor"),
}

# Builtins that turn a tensor into a Python value.
BUILTINS: dict[str, Model] = {
    "float": Model("cut", "host", "number"),
    "int": Model("cut", "host", "number"),
    "bool": Model("cut", "host", "number"),
    "len": Model("cut", "host", "number"),
    "round": Model("cut", "host", "number"),
    "str": Model("cut", "host", "same"),
}

# The names a `.to(...)` argument has when it is a dtype, not a device: `x.to(torch.float)`.
DTYPES = {
    "float", "float16", "float32", "float64", "half", "double", "bfloat16", "int", "int8", "int16", "int32",
    "int64", "long", "uint8", "bool", "short", "complex64", "complex128",
}
# Integer (and bool) dtypes: a tensor of one never requires grad, so nothing added into it keeps a graph.
INTEGER_DTYPES = {"int", "int8", "int16", "int32", "int64", "long", "uint8", "bool", "short"}

# Calls that split one tensor into pieces: a loop over them runs within one step (over the chunks
# of one batch), not once per step.
SPLITTERS = {"torch.chunk", "torch.split", "torch.unbind", "torch.tensor_split"}
SPLITTING_METHODS = {"chunk", "split", "unbind", "tensor_split"}

# Methods on a framework's module that record a value without keeping its graph: Lightning's
# `self.log(name, value)` and `self.log_dict(values)` detach what they keep.
SANITIZING_FRAMEWORK_METHODS = {"log", "log_dict"}

# Classes whose `update(value)` keeps a running state without the value's graph: torchmetrics
# runs `Metric.update` under `torch.set_grad_enabled(False)` unless the metric asks otherwise.
SANITIZING_UPDATE_CLASSES = ("torchmetrics.",)

# Factories whose result is a tokenizer, processor or feature extractor: calling one encodes
# text or images, it runs no model.
NON_MODEL_FACTORIES = ("Tokenizer", "Processor", "FeatureExtractor", "ImageProcessor")

# Names of callees that, where their definition is not visible (third-party code), are assumed to
# return a loss with history; a definition in the project decides instead (see `flow.summaries`).
_LOSS_NAMES = re.compile(r"loss|criterion", re.IGNORECASE)


def named_like_loss(name: str) -> bool:
    """`compute_loss`, `criterion`: a callee named like a loss."""
    return bool(_LOSS_NAMES.search(name))
