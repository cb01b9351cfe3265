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
    "detach_": Model("cut", "same", "tensor"),  # detaches the receiver in place and returns it
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

# Views of a tensor outside autograd: `t.data` (its changes are "not tracked by autograd", PyTorch's
# reference of torch.Tensor.data and its autograd notes, 1.x to 2.x) and `t.detach()` ("detached from
# the current graph", sharing its storage: torch.Tensor.detach). An in-place update through one never
# gives `t` a graph, whatever the update is computed from (`self.buf.data.mul_(m).add_(x)`).
DETACHED_VIEW_ATTRIBUTES = frozenset({"data"})
DETACHED_VIEW_METHODS = frozenset({"detach"})

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

# Leaves that require grad: `x.requires_grad_()` (True by default) and the factories' `requires_grad=True`
# keyword make a tensor autograd records every operation on ("only leaf tensors" may change the flag,
# PyTorch's reference of torch.Tensor.requires_grad_, 1.x to 2.x). The method, and the keyword (also the
# flag's position in the method's arguments: 0). The method sets the flag in place and "returns this
# tensor" (same reference), so what differentiates its result differentiates its receiver.
GRAD_LEAF_METHOD = "requires_grad_"
GRAD_LEAF_KEYWORD = "requires_grad"
# `module.register_buffer(name, tensor)` and `module.register_parameter(name, param)` make `module.<name>`
# that tensor (torch/nn/modules/module.py, 1.x to 2.x: `__getattr__` returns it from `_buffers` or
# `_parameters`). Method -> the position of the value among its arguments (the name is the first).
ATTRIBUTE_REGISTRARS: dict[str, int] = {"register_buffer": 1, "register_parameter": 1}
# A function registered with `module.register_forward_hook(hook)` runs after every forward of the module,
# as `hook(module, args, output)` (torch/nn/modules/module.py, 1.x to 2.x): `args` are the forward's
# inputs and `output` its output, with the history the forward recorded. Method -> the positions of the
# hook's parameters that receive them.
FORWARD_HOOK_ARGUMENTS: dict[str, tuple[int, ...]] = {"register_forward_hook": (1, 2)}

# A module's parameters are leaves that require grad unless frozen: `parameters()` yields each Parameter,
# `named_parameters()` (name, Parameter) pairs (torch/nn/modules/module.py, 1.x to 2.x; a Parameter's
# `requires_grad` defaults to True). Arithmetic on one with grad on records a graph (an exponential moving
# average updated outside `no_grad` chains every step's). `state_dict()` is no such iterator: it detaches
# its tensors unless `keep_vars=True`. Method -> the element of each item that is the parameter (None: the item).
PARAMETER_ITERATORS: dict[str, int | None] = {"parameters": None, "named_parameters": 1}
# And its submodules: `modules()` and `children()` yield each module, `named_modules()` and `named_children()`
# (name, module) pairs (torch/nn/modules/module.py, 1.x to 2.x). A module container yields its modules when
# iterated or indexed (`nn.ModuleList.__iter__`/`__getitem__`, `nn.Sequential`: torch/nn/modules/container.py).
# Method -> the element of each item that is the module (None: the item).
SUBMODULE_ITERATORS: dict[str, int | None] = {"modules": None, "children": None, "named_modules": 1, "named_children": 1}

# Derivatives that are themselves differentiable where asked: `torch.autograd.grad(..., create_graph=True)`
# "constructs the graph of the derivative, allowing to compute higher order derivative products"
# (PyTorch's reference of torch.autograd.grad, 1.x to 2.x), so its results carry history; without the
# keyword they carry none. The function, and its keyword.
GRAPH_OF_DERIVATIVE = {"torch.autograd.grad": "create_graph"}

# torch functions whose result is integer indices (or a tuple of them), or another integer tensor,
# whatever their arguments carry: an integer tensor never requires grad ("only Tensors of floating
# point and complex dtype can require gradients", torch.Tensor.requires_grad_). `torch.where(condition)`
# with one argument is `torch.nonzero(condition, as_tuple=True)` (PyTorch's reference of torch.where);
# with three it selects from its tensors and keeps their history. `F.one_hot` takes a LongTensor of
# indices and returns a LongTensor (PyTorch's reference of torch.nn.functional.one_hot, 1.x to 2.x).
INDEX_FUNCTIONS = frozenset({"torch.nonzero", "torch.argwhere", "torch.nn.functional.one_hot"})
INDEX_FUNCTIONS_OF_ONE_ARGUMENT = frozenset({"torch.where"})

# Libraries of host values: numpy, math and statistics return Python numbers or numpy arrays,
# never a tensor, so what they compute carries no autograd history (numpy refuses a tensor that
# requires grad: "Can't call numpy() on Tensor that requires grad"). Prefixes of resolved names
# (`np.` where the import is not seen).
HOST_LIBRARIES = ("numpy.", "np.", "math.", "statistics.")

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

# Methods of Python's `str` that `torch.Tensor` has not (Python's and PyTorch's references; `split`,
# `replace`, `count` and `index` are on both, or their names are): a value read with one is text.
TEXT_ONLY_METHODS = frozenset({
    "strip", "lstrip", "rstrip", "lower", "upper", "casefold", "capitalize", "title", "startswith",
    "endswith", "splitlines", "encode", "isdigit", "isalpha", "isspace",
})

# Methods a tensor has too, whose string argument only `str` takes: `ref.split("\n")` splits text
# (torch.Tensor.split takes a size or a list of sizes, PyTorch's reference 1.x to 2.x).
TEXT_WITH_STRING_ARGUMENT = frozenset({"split"})

# Methods of library classes that return a Python number, whatever their name says: pyro's `SVI`
# takes a gradient step (`step`) or estimates the loss under no_grad (`evaluate_loss`) and
# returns the loss as a float (`torch_item`). Keyed by the class as imported.
NUMBER_METHODS: dict[str, frozenset[str]] = {
    "pyro.infer.SVI": frozenset({"step", "evaluate_loss"}),
    "pyro.infer.svi.SVI": frozenset({"step", "evaluate_loss"}),
}

# torch functions that take a sequence of tensors, and nothing else, as their first argument and
# make one tensor of it (PyTorch's reference for torch.cat and its aliases concat/concatenate,
# torch.stack, torch.hstack, torch.vstack).
CONCATENATIONS = frozenset(
    {"torch.cat", "torch.concat", "torch.concatenate", "torch.stack", "torch.hstack", "torch.vstack"}
)

# NumPy's functions that join a sequence's elements into one array, converting each to an array first:
# a CUDA tensor refuses (`Tensor.__array__` calls `Tensor.numpy()`, which raises "can't convert cuda:0
# device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first": torch/_tensor.py,
# 1.x to 2.x). A list handed whole to one holds host values (arrays, numbers, CPU tensors), or the program
# stops there.
NUMPY_CONCATENATIONS = frozenset({"numpy.concatenate", "numpy.stack", "numpy.vstack", "numpy.hstack"})

# Tensor methods that refuse a CUDA tensor when called with no argument: `Tensor.numpy()` raises "can't
# convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first"
# (torch/csrc/utils/tensor_numpy.cpp, 1.x to 2.x; only `numpy(force=True)`, from 1.13, copies it to the host).
# A tensor read by one of them is a CPU tensor, or the program stops there; so is each of the tensors a
# concatenation (CONCATENATIONS) joins into it, since torch.cat keeps its inputs' device.
HOST_ONLY_METHODS = frozenset({"numpy"})

# Methods of Python's containers that store an argument in their receiver (the argument's position):
# `list.append/extend/insert`, `set.add`, `collections.deque.appendleft`, `queue.Queue.put`. A receiver
# made by a class of the project is asked about instead: its own method may keep nothing.
CONTAINER_STORES: dict[str, int] = {"append": 0, "appendleft": 0, "extend": 0, "add": 0, "put": 0, "insert": 1}

# And of Python's mappings (`dict.update(other)`, `dict.setdefault(key, default)`): asked only of a
# receiver known to be a built-in container, since a class of the project or a meter has methods of
# these names that may keep nothing.
MAPPING_STORES: dict[str, int] = {"update": 0, "setdefault": 1}

# Constructors of Python's built-in and standard containers, which make a new one, empty when handed no
# contents (Python's reference: built-in types; `collections`): a variable bound only to one is the
# function's own. Constructor -> how many positional arguments are no contents (`defaultdict(list)`).
FRESH_CONTAINERS: dict[str, int] = {
    "list": 0, "dict": 0, "set": 0, "collections.defaultdict": 1, "collections.OrderedDict": 0, "collections.deque": 0,
}
# Of those, the ones that make a mapping (Python's reference: mapping types): a loop over one visits its keys.
FRESH_MAPPINGS = frozenset({"dict", "collections.defaultdict", "collections.OrderedDict"})

# Classes whose instances yield batches, one per iteration (torch/utils/data/dataloader.py `DataLoader`,
# torch 1.x to 2.x): a loop over one runs once per step, whatever it is called.
BATCH_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})

# What `.step()` does on an object of a library class, by the class (a dotted prefix: a module's classes):
# "optimizer" (an update of the weights: torch/optim/optimizer.py `Optimizer.step`, torch 1.x to 2.x,
# and the optimizers of torch.optim's modules, bitsandbytes.optim, apex.optimizers and timm.optim),
# "scheduler" (a learning-rate schedule moves on, no weight does: torch/optim/lr_scheduler.py,
# torch/optim/swa_utils.py `SWALR`, timm/scheduler), "scaler" (`GradScaler.step(optimizer)` steps
# the optimizer it is handed: torch/amp/grad_scaler.py, torch/cuda/amp/grad_scaler.py) or "other"
# (swa_utils' `AveragedModel` is a module, whose `update_parameters` averages). The longest
# prefix that a class name starts with decides.
STEPPING_CLASSES: dict[str, str] = {
    "torch.optim.": "optimizer", "torch.optim.lr_scheduler.": "scheduler", "torch.optim.swa_utils.": "other",
    "torch.optim.swa_utils.SWALR": "scheduler",
    "torch.amp.GradScaler": "scaler", "torch.amp.grad_scaler.GradScaler": "scaler", "torch.cuda.amp.GradScaler": "scaler",
    "torch.cuda.amp.grad_scaler.GradScaler": "scaler", "bitsandbytes.optim.": "optimizer", "apex.optimizers.": "optimizer",
    "timm.optim.": "optimizer", "timm.scheduler.": "scheduler",
}


def stepping_kind(name: str) -> str | None:
    """What `.step()` does on an object of the library class `name` (`STEPPING_CLASSES`); None for a
    class the table does not hold."""
    prefixes = [prefix for prefix in STEPPING_CLASSES if name.startswith(prefix)]
    return STEPPING_CLASSES[max(prefixes, key=len)] if prefixes else None


# Callables that yield the items of the iterable they are handed (the argument's position), so a loop
# over their result iterates that iterable: Python's `enumerate` and `iter`, tqdm's progress bars
# (tqdm/std.py `tqdm.__iter__`, 4.x).
ITERATING_WRAPPERS: dict[str, int] = {
    "enumerate": 0, "iter": 0, "tqdm.tqdm": 0, "tqdm.auto.tqdm": 0, "tqdm.notebook.tqdm": 0, "tqdm.std.tqdm": 0,
}

# Methods of library classes that keep an argument on the object beyond the call (the argument's
# position): handed a tensor with history, they keep its graph. timm's `AverageMeter.update(val,
# n=1)` does `self.val = val; self.sum += val * n` (timm/utils/metrics.py, 0.9 to 1.0).
KEEPS_ARGUMENT: dict[str, int] = {
    "timm.utils.AverageMeter.update": 0,
    "timm.utils.metrics.AverageMeter.update": 0,
}

# Factories whose result is a tokenizer, processor or feature extractor: calling one encodes
# text or images, it runs no model.
NON_MODEL_FACTORIES = ("Tokenizer", "Processor", "FeatureExtractor", "ImageProcessor")

# Names of callees that, where their definition is not visible (third-party code), are assumed to
# return a loss with history; a definition in the project decides instead (see `flow.summaries`).
_LOSS_NAMES = re.compile(r"loss|criterion", re.IGNORECASE)


def named_like_loss(name: str) -> bool:
    """`compute_loss`, `criterion`: a callee named like a loss."""
    return bool(_LOSS_NAMES.search(name))


# Methods of a module that run its forward: `model.forward(x)` is a model run like `model(x)`.
# (Lightning's `predict_step` does too, but Lightning's own strategies call it under its
# no-grad predict loop, where a method of that name says nothing of the grad mode.)
MODULE_RUN_METHODS = frozenset({"forward"})

# Methods a module has that compute nothing from its parameters on the values they are handed (torch
# 2.x torch/nn/modules/module.py `Module`; transformers 4.x `PreTrainedModel` and `GenerationMixin`,
# whose `generate` is decorated `@torch.no_grad()`; diffusers `ModelMixin`): every other method of a
# module called on tensors (`vae.encode(pixels)`, `clip.encode_image(images)`) computes with them.
MODULE_API_METHODS = frozenset({
    "add_module", "apply", "bfloat16", "buffers", "children", "compile", "cpu", "cuda", "double", "eval",
    "extra_repr", "float", "get_buffer", "get_extra_state", "get_parameter", "get_submodule", "half", "ipu",
    "load_state_dict", "modules", "named_buffers", "named_children", "named_modules", "named_parameters",
    "parameters", "register_buffer", "register_module", "register_parameter", "requires_grad_",
    "set_extra_state", "set_submodule", "share_memory", "state_dict", "to", "to_empty", "train", "type", "xpu",
    "zero_grad", "save_pretrained", "push_to_hub", "resize_token_embeddings", "get_input_embeddings",
    "get_output_embeddings", "set_input_embeddings", "tie_weights", "gradient_checkpointing_enable",
    "enable_input_require_grads", "generate", "load_adapter", "set_adapter", "enable_slicing", "enable_tiling",
})

# Names of variables and attributes that, where nothing in the project says what they hold, are
# assumed to hold a module (`model(x)`, `self.encoder(x)` run a forward).
# A base class out of sight taken for a module by its name (a base of the project is asked instead).
MODULE_CLASS_NAME = re.compile(r"(Module|PreTrainedModel|Model)$")
_MODULE_NAMES = re.compile(
    r"^_*(model|models|net|network|module|criterion|criteria|loss_fn|loss_func|loss_function|lossfn|"
    r"loss_fct|loss_module|encoder|decoder|backbone|head|heads|classifier|generator|discriminator|"
    r"policy|critic|actor|value_net|q_net|qnet|teacher|student|unet|vae|transformer|rnn|lstm|gru|cell|"
    r"mlp|lm|lm_head|embedder|autoencoder|disc|gen|netg|netd|netG|netD|ddp_model|raw_model)_?$"
    r"|_(model|net|network|encoder|decoder|backbone|head|classifier|criterion)$",
    re.IGNORECASE,
)


def named_like_module(name: str) -> bool:
    """`model`, `self.encoder`, `netD`: a name a module is usually held in."""
    return bool(_MODULE_NAMES.search(name))


# torch functions whose result is a tensor in host memory whatever device the program uses: the
# CPU generator's state, and the CUDA generators' states, which are returned as CPU ByteTensors.
HOST_TENSOR_FUNCTIONS = {
    "torch.get_rng_state", "torch.random.get_rng_state", "torch.cuda.get_rng_state", "torch.cuda.get_rng_state_all",
    "torch.cuda.random.get_rng_state", "torch.cuda.random.get_rng_state_all",
}

# torch functions whose result is no tensor, and what it is: `torch.nn.modules.utils._pair(x)` (and
# `_single`, `_triple`, `_quadruple`, `_reverse_repeat_tuple`) turn an int, or an iterable, into a tuple
# of Python values (torch/nn/modules/utils.py, torch 1.0 to 2.x): the stride, padding and dilation that
# conv layers and custom Functions keep.
NON_TENSOR_FUNCTIONS: dict[str, str] = {
    f"torch.nn.modules.utils.{name}": "sequence"
    for name in ("_single", "_pair", "_triple", "_quadruple", "_reverse_repeat_tuple")
}

# Factories whose positional arguments are sizes (and bounds, fill values), not tensors:
# `torch.empty(num_layers, batch, hidden)` reads `num_layers` as an int.
SIZE_FACTORIES = {
    "torch.empty", "torch.zeros", "torch.ones", "torch.full", "torch.rand", "torch.randn", "torch.randint",
    "torch.randperm", "torch.arange", "torch.linspace", "torch.logspace", "torch.eye", "torch.empty_strided",
    "torch.tril_indices", "torch.triu_indices",
}

# `nn.Module` methods that move or cast a module in place and return it (PyTorch's nn.Module
# reference, 1.x to 2.x): `net.eval().to(device)` is `net`.
MODULE_PLACEMENT = frozenset({"to", "cuda", "cpu", "half", "float", "double", "bfloat16"})
# ... with those that switch its mode or freeze it, which return it too.
MODULE_SELF_RETURNING = MODULE_PLACEMENT | {"train", "eval", "requires_grad_"}
# A module's mode: the attribute that is true in training mode (`nn.Module.training`), and the method that
# switches training mode on and returns the module, which is truthy (`nn.Module.train(mode=True)`, PyTorch
# 1.x to 2.x). The body of `if self.training:` and of `if self.train():` runs in training mode.
MODULE_TRAINING_FLAG = "training"
MODULE_TRAINING_SWITCH = "train"

# Classes an `isinstance` test of which holds for every tensor, and only for tensors: `torch.Tensor`,
# `Parameter` (a subclass) for parameters, and the legacy `Variable`, whose metaclass answers
# `isinstance(x, Variable)` as `isinstance(x, torch.Tensor)` since PyTorch 0.4 (torch/autograd/variable.py,
# `VariableMeta.__instancecheck__`).
TENSOR_CLASSES = frozenset({"torch.Tensor", "torch.autograd.Variable", "torch.autograd.variable.Variable"})

# The classes whose instances are parameters, tensors themselves (`nn.Parameter(torch.randn(n, d))`):
# https://pytorch.org/docs/stable/generated/torch.nn.parameter.Parameter.html ("a kind of Tensor").
PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})

# `torch.nn`'s loss modules: `_Loss` and `_WeightedLoss` (torch/nn/modules/loss.py, PyTorch 1.x to
# 2.x) keep a reduction string (by default "mean": a 0-dim loss) and register `weight`/`pos_weight` as
# buffers, never a parameter, so a loss of values without history has none (`criterion(pred.detach(), y)`)
LOSS_MODULES = frozenset(
    f"torch.nn.{name}"
    for name in (
        "L1Loss", "MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss",
        "SmoothL1Loss", "HuberLoss", "CTCLoss", "PoissonNLLLoss", "GaussianNLLLoss", "MarginRankingLoss",
        "HingeEmbeddingLoss", "MultiLabelMarginLoss", "SoftMarginLoss", "MultiLabelSoftMarginLoss",
        "CosineEmbeddingLoss", "MultiMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
    )
)

# `torch.nn` modules (and torchaudio's transforms, and torch's loss modules) without parameters:
# calling one on a value without history records no graph (`LogSoftmax(dim=1)(logits)` after a
# no_grad forward).
PARAMETER_FREE_MODULES = frozenset(
    f"torch.nn.{name}"
    for name in (
        "ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Mish", "Sigmoid", "Tanh", "Hardtanh",
        "Hardswish", "Hardsigmoid", "Softplus", "Softsign", "Tanhshrink", "Threshold", "LogSigmoid", "Softmax",
        "LogSoftmax", "Softmin", "Softmax2d", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
        "Identity", "Flatten", "Unflatten", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d",
        "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
        "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "Upsample", "PixelShuffle", "PixelUnshuffle", "CosineSimilarity",
        "PairwiseDistance",
    )
) | frozenset(
    # torchaudio's signal transforms: buffers (a window, a filter bank), no parameter (torchaudio's
    # transforms reference, 0.13 to 2.x)
    f"torchaudio.transforms.{name}"
    for name in (
        "Spectrogram", "InverseSpectrogram", "MelScale", "MelSpectrogram", "MFCC", "LFCC", "AmplitudeToDB",
        "Resample", "GriffinLim", "ComputeDeltas", "Fade", "Vol",
    )
) | LOSS_MODULES | frozenset(
    # warp-ctc's binding: `CTCLoss(Module)` keeps its blank index and two flags and calls its autograd
    # function in forward, registering no parameter (SeanNaren/warp-ctc, pytorch_binding/warpctc_pytorch/__init__.py)
    {"warpctc_pytorch.CTCLoss"}
) | frozenset(
    # smplx's body-model layers: each calls its model's constructor with every `create_*` flag that makes
    # a parameter off ("Just create a SMPL module without any member variables"), so its shape and pose
    # blend tensors and joint indexes are buffers (vchoutas/smplx, smplx/body_models.py: SMPLLayer,
    # SMPLHLayer, SMPLXLayer, MANOLayer; FLAMELayer keeps `transl` and is not here)
    f"smplx.{path}{name}"
    for path in ("", "body_models.")
    for name in ("SMPLLayer", "SMPLHLayer", "SMPLXLayer", "MANOLayer")
)

# Packages of torch whose classes are never modules (torch.distributions: `Distribution` derives from
# `object`, PyTorch 1.x to 2.x): an object of one kept on a module adds no parameter to it
# (`self.sampler = torch.distributions.Beta(alpha, alpha)`).
NON_MODULE_PACKAGES = ("torch.distributions.",)

# Packages whose functions and classes make no module at all: NumPy's return arrays, scalars or tuples of
# them (NumPy's reference; NumPy knows nothing of torch), so what one makes, kept on a module (`self.maps =
# {"a2m": np.arange(24)}`), adds no parameter to it.
PLAIN_PACKAGES = ("numpy.",)

# `torch.nn` modules whose forward returns one Tensor (PyTorch's torch.nn reference, 1.x to 2.x: the
# "Output" of each page): the parameter-free ones above (the loss modules among them), and layers
# with parameters. A fix may call `.detach()` on what they return. Recurrent layers (RNN, LSTM, GRU),
# LSTMCell and MultiheadAttention return tuples and are not here; `nn.Sequential` returns what its
# last module returns (SEQUENTIAL_MODULES).
TENSOR_MODULES = PARAMETER_FREE_MODULES | frozenset(
    f"torch.nn.{name}"
    for name in (
        "Linear", "Bilinear", "LazyLinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
        "ConvTranspose3d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "LayerNorm", "GroupNorm",
        "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "RMSNorm", "LocalResponseNorm", "Embedding",
        "EmbeddingBag", "PReLU", "RNNCell", "GRUCell", "TransformerEncoder", "TransformerEncoderLayer",
        "TransformerDecoder", "TransformerDecoderLayer", "Transformer",
    )
)
SEQUENTIAL_MODULES = frozenset({"torch.nn.Sequential", "torch.nn.modules.container.Sequential"})

# `torch.nn` layers whose leading positional parameters are sizes and options, never a tensor, a
# module or a device, by how many (PyTorch's torch.nn reference, 1.x to 2.x: `Linear(in_features,
# out_features, bias=True, device=None, dtype=None)`, `Embedding(num_embeddings, embedding_dim,
# padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False,
# _weight=None, _freeze=False, device=None, dtype=None)`): built with those alone, and keywords other
# than LAYER_PLACING_KEYWORDS, a layer is made on the host, whatever values the sizes are.
LAYER_OPTION_PARAMETERS: dict[str, int] = {
    **{f"torch.nn.{name}": 3 for name in ("Linear",)},
    **{f"torch.nn.{name}": 4 for name in ("Bilinear", "LayerNorm", "GroupNorm")},
    **{f"torch.nn.{name}": 5 for name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d")},
    **{f"torch.nn.{name}": 7 for name in ("Embedding", "EmbeddingBag", "GRU")},
    **{f"torch.nn.{name}": 8 for name in ("LSTM", "RNN")},
    **{f"torch.nn.{name}": 9 for name in ("Conv1d", "Conv2d", "Conv3d")},
    **{f"torch.nn.{name}": 10 for name in ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")},
}
# The keywords of those constructors that may put the layer on a device: the device, and initial
# weights (`Embedding(..., _weight=w)` keeps `w` where it is).
LAYER_PLACING_KEYWORDS = frozenset({"device", "_weight"})

# Builtins that read an object and keep no reference to it (Python's built-in functions reference):
# handed a module, they neither move it nor keep it (`print("loaded", model)`).
READING_BUILTINS = frozenset({"print", "repr", "id", "type", "isinstance"})

# Builtins that return a Python number whatever they are handed, a tensor too (`float(loss)`: a 0-dim
# tensor's `__float__`): a host value (Python's "Built-in Functions" documentation).
HOST_NUMBER_BUILTINS = frozenset({"float", "int", "bool", "len", "round"})

# Library classes whose instances run their models without grad when called: espnet2's
# `Speech2Text.__call__` is decorated `@torch.no_grad()` (espnet2/bin/asr_inference.py, espnet
# 0.10 to 202412), so `asr_model(wav)` records no graph.
NO_GRAD_CALLABLES = frozenset({"espnet2.bin.asr_inference.Speech2Text"})

# Libraries whose classes take gradients on purpose: captum's attribution methods (`captum.attr`,
# `LayerGradCam.attribute`, `IntegratedGradients.attribute`) differentiate the model's outputs with
# respect to its inputs or layers, so they need grad on. Prefixes of the classes as resolved.
GRADIENT_LIBRARIES = ("captum.",)

# Libraries whose model classes are no torch modules: calling one runs another runtime, which
# records no autograd graph. optimum's `ORTModel*` classes (optimum.onnxruntime, 1.x) run an ONNX
# Runtime `InferenceSession` in `forward` and hand back tensors made from its outputs. Prefixes of
# the class (or its factory, `ORTModelForFeatureExtraction.from_pretrained`) as resolved.
OTHER_RUNTIME_MODELS = ("optimum.onnxruntime.",)

# Library objects that run the model they hold, and train it only in training mode: torchrec's train
# pipelines (`TrainPipelineSparseDist(model, optimizer, device)`) draw the next batch in `progress(it)`,
# run `self._model(batch)` on it and only `if self._model.training:` run backward and the optimizer step
# (torchrec/distributed/train_pipeline.py from 0.1, 2021; train_pipeline/train_pipelines.py in 1.x, also
# `TrainPipelineBase`, `PrefetchTrainPipelineSparseDist`). After `model.eval()` a call is a forward with
# grad on that nothing differentiates. Class (as resolved, by each path torchrec exports it) -> those methods.
MODEL_RUNNING_METHODS: dict[str, frozenset[str]] = {
    f"{package}.{cls}": frozenset({"progress"})
    for package in ("torchrec.distributed", "torchrec.distributed.train_pipeline")
    for cls in ("TrainPipelineBase", "TrainPipelineSparseDist", "PrefetchTrainPipelineSparseDist")
}

# -- Values handed through: what a call returns of what it is given -----------------------------
# (the value flow into and out of callees: `flow.summaries`, `provenance`)

# Functions whose result is made of their arguments' values, history included:
# `functools.reduce(lambda a, b: a + b, losses)` sums the losses with their graphs.
PASS_THROUGH_FUNCTIONS = {"functools.reduce", "operator.add", "operator.iadd", "operator.mul", "copy.copy"}

# Methods that run a callable they are handed and return what it returns: `torch.optim`'s
# `optimizer.step(closure)` returns `closure()` (the LBFGS and line-search idiom); the position
# of the callable among the arguments, and its keyword.
RUNS_ITS_ARGUMENT = {"step": (0, "closure")}


# -- Loading checkpoints ---------------------------------------------------------------------
# Functions that read a checkpoint with `torch.load` and hand it their `map_location` (None by
# default: every tensor goes back to the device it was saved from): the positions of the file
# argument and of `map_location` among the positional arguments.
CHECKPOINT_LOADS = {
    "torch.load": (0, 1),
    "torch.serialization.load": (0, 1),
    # mmcv 1.x, mmcv/runner/checkpoint.py: `load_checkpoint(model, filename, map_location=None, strict=False,
    # logger=None, revise_keys=...)` and `_load_checkpoint(filename, map_location=None, logger=None)`
    "mmcv.runner.load_checkpoint": (1, 2),
    "mmcv.runner.checkpoint.load_checkpoint": (1, 2),
    "mmcv.runner.checkpoint._load_checkpoint": (0, 1),
    # and `_load_checkpoint_with_prefix(prefix, filename, map_location=None)`, which hands it on to `_load_checkpoint`
    "mmcv.runner.checkpoint._load_checkpoint_with_prefix": (1, 2),
    # mmengine 0.x, mmengine/runner/checkpoint.py: the same three functions, the same signatures
    "mmengine.runner.load_checkpoint": (1, 2),
    "mmengine.runner.checkpoint.load_checkpoint": (1, 2),
    "mmengine.runner.checkpoint._load_checkpoint": (0, 1),
    "mmengine.runner.checkpoint._load_checkpoint_with_prefix": (1, 2),
    # torch 1.x to 2.x, torch/hub.py: `load_state_dict_from_url(url, model_dir=None, map_location=None,
    # progress=True, ...)` downloads the file and returns `torch.load(cached_file, map_location=map_location)`;
    # `torch.utils.model_zoo.load_url` is the same function
    "torch.hub.load_state_dict_from_url": (0, 2),
    "torch.utils.model_zoo.load_url": (0, 2),
}

# What a loaded state dict is read into, where that holds no tensor on a device: the classes (as
# resolved; a prefix ending in "." names a module's classes) whose `load_state_dict` takes Python
# numbers (torch/optim/lr_scheduler.py: `state_dict()` is the scheduler's `__dict__` less the
# optimizer; torch/amp/grad_scaler.py and torch/cuda/amp/grad_scaler.py: `state_dict()` holds
# `get_scale()`, a float, and the growth settings), and the functions that set a random number
# generator's state from a loaded one (`torch.get_rng_state()` and `torch.cuda.get_rng_state()`
# return CPU byte tensors; `random.getstate()` and `numpy.random.get_state()` no tensor).
# The keyword that hands a loaded state dict to a model's constructor: transformers 4.x
# (`PreTrainedModel.from_pretrained(..., state_dict=None)`, modeling_utils.py) and diffusers 0.x
# (`ModelMixin.from_pretrained`), both loading it into the model they build.
STATE_DICT_KEYWORDS = frozenset({"state_dict"})
# Wrappers that run the module they are handed as it is (their forward calls its forward), so what
# they return runs what was handed: torch/nn/parallel/data_parallel.py and distributed.py (1.x-2.x),
# torch/distributed/fsdp/fully_sharded_data_parallel.py (1.11+), `torch.compile` (2.0+,
# torch/__init__.py: an OptimizedModule around the module).
MODULE_WRAPPERS = frozenset({
    "torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.data_parallel.DataParallel",
    "torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel",
    "torch.distributed.fsdp.FullyShardedDataParallel",
    "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel", "torch.compile",
})
HOST_STATE_CLASSES = ("torch.optim.lr_scheduler.", "torch.amp.GradScaler", "torch.cuda.amp.GradScaler")
RNG_STATE_SETTERS = frozenset(
    {
        "torch.set_rng_state",
        "torch.random.set_rng_state",
        "torch.cuda.set_rng_state",
        "torch.cuda.set_rng_state_all",
        "random.setstate",
        "numpy.random.set_state",
    }
)

# Libraries whose training code saves its checkpoints as dicts of CPU tensors, and the keys they
# write: a project that uses the library and loads one of these keys without `map_location` reads
# CPU tensors. basicsr (XPixelGroup/BasicSR, basicsr/models/base_model.py, v1.0.0 to v1.4.2 and 8d56e3a):
# `BaseModel.save_network` saves `{param_key: state_dict}` after `state_dict[key] = param.cpu()`,
# with `param_key` 'params', and 'params_ema' for the EMA network (`SRModel.save` and its subclasses).
CPU_SAVED_CHECKPOINT_KEYS: dict[str, frozenset[str]] = {"basicsr": frozenset({"params", "params_ema"})}
# `from_pretrained` builds the model on the CPU unless told otherwise: transformers 4.x
# (modeling_utils.py `PreTrainedModel.from_pretrained`: the weights are loaded to "cpu" and the
# model is placed only where `device_map` is given) and diffusers 0.x (`ModelMixin.from_pretrained`,
# the same keyword). Its first argument names the weights (a hub id or a folder), no device.
PRETRAINED_LOAD = "from_pretrained"
PRETRAINED_PLACEMENT_KEYWORDS = frozenset({"device_map"})

# Methods (by the class of their receiver, as imported) whose result holds no tensor: the parsed
# command line. Python 3 docs, argparse: `ArgumentParser.parse_args` returns a `Namespace` of the
# argument strings, converted by each argument's `type` (numbers, strings, bools, paths);
# `parse_known_args` returns that `Namespace` and the list of the remaining strings. A checkpoint
# that holds only such a value (`torch.save(args, "training_args.bin")`) puts nothing on a device.
HOST_DATA_METHODS: dict[str, frozenset[str]] = {"argparse.ArgumentParser": frozenset({"parse_args", "parse_known_args"})}


# Where torch's published weights are downloaded from, and the functions that download them: the
# files there are state dicts of CPU tensors (torchvision's `load_state_dict_from_url` loads them
# without `map_location` on machines without a GPU, torchvision 0.2 to 0.2x).
CPU_SAVED_URL_PREFIXES = ("https://download.pytorch.org/models/",)
WEIGHT_DOWNLOADS = frozenset({"torch.hub.load_state_dict_from_url", "torch.utils.model_zoo.load_url"})

# Methods of library classes that run training, by the class as imported: Lightning 2.x
# (trainer/trainer.py `Trainer.fit`; fabric has no loop of its own), transformers 4.x (trainer.py
# `Trainer.train`) and trl's trainers deriving from it (`SFTTrainer`, `DPOTrainer`: trainer.train()).
TRAINING_METHODS: dict[str, frozenset[str]] = {
    **{cls: frozenset({"fit"}) for cls in ("lightning.Trainer", "lightning.pytorch.Trainer", "pytorch_lightning.Trainer")},
    **{cls: frozenset({"train"}) for cls in (
        "transformers.Trainer", "transformers.trainer.Trainer", "transformers.Seq2SeqTrainer", "trl.SFTTrainer",
        "trl.DPOTrainer",
    )},
}

# -- The rank of this process --------------------------------------------------------------------
# Functions that return this process's rank among all processes ("global") or among those of its
# machine ("local"): torch 2.x torch/distributed/distributed_c10d.py (`get_rank`; `get_node_local_rank`,
# read from LOCAL_RANK); Horovod 0.x horovod/torch/mpi_ops.py (`rank`, `local_rank` of the basics
# that `hvd.init()` starts).
RANK_FUNCTIONS: dict[str, str] = {
    "torch.distributed.get_rank": "global",
    "torch.distributed.distributed_c10d.get_rank": "global",
    "torch.distributed.get_node_local_rank": "local",
    "horovod.torch.rank": "global",
    "horovod.torch.local_rank": "local",
}
# The variables the launchers set in each process's environment: torchrun (torch/distributed/run.py:
# RANK, LOCAL_RANK), SLURM (srun: SLURM_PROCID, SLURM_LOCALID), Open MPI (mpirun:
# OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_LOCAL_RANK).
RANK_VARIABLES: dict[str, str] = {
    "RANK": "global", "SLURM_PROCID": "global", "OMPI_COMM_WORLD_RANK": "global",
    "LOCAL_RANK": "local", "SLURM_LOCALID": "local", "OMPI_COMM_WORLD_LOCAL_RANK": "local",
}
# Attributes of library objects that hold the process's rank, by the object's class, as imported:
# accelerate 0.2x-1.x src/accelerate/state.py (`PartialState.process_index`, `local_process_index`)
# and accelerator.py (the same properties of `Accelerator`); Lightning 2.x trainer/trainer.py
# (`Trainer.global_rank`, `local_rank`) and fabric/fabric.py (`Fabric.global_rank`, `local_rank`);
# transformers 4.x training_args.py (`TrainingArguments.process_index`, `local_rank`).
RANK_ATTRIBUTES: dict[str, dict[str, str]] = {
    **{cls: {"process_index": "global", "local_process_index": "local"} for cls in (
        "accelerate.Accelerator", "accelerate.accelerator.Accelerator", "accelerate.PartialState",
        "accelerate.state.PartialState",
    )},
    **{cls: {"global_rank": "global", "local_rank": "local"} for cls in (
        "lightning.Trainer", "lightning.pytorch.Trainer", "pytorch_lightning.Trainer", "lightning.Fabric",
        "lightning.fabric.Fabric", "lightning_fabric.Fabric",
    )},
    **{cls: {"process_index": "global", "local_rank": "local"} for cls in (
        "transformers.TrainingArguments", "transformers.training_args.TrainingArguments",
    )},
}
# The same of a LightningModule (`self.global_rank`, `self.local_rank`: lightning/pytorch/core/module.py)
# and of the trainer it holds (`self.trainer`).
LIGHTNING_MODULE_RANKS: dict[str, str] = {"global_rank": "global", "local_rank": "local"}
# Flags (attributes, or methods called without arguments) that are true on the process of rank 0
# alone: accelerate's `is_main_process` (state.py: `process_index == 0`), Lightning's `is_global_zero`
# (trainer.py and fabric.py: `global_rank == 0`), transformers' `Trainer.is_world_process_zero()`
# (trainer.py: `args.process_index == 0`).
RANK_ZERO_FLAGS: dict[str, frozenset[str]] = {
    **{cls: frozenset({"is_main_process"}) for cls in (
        "accelerate.Accelerator", "accelerate.accelerator.Accelerator", "accelerate.PartialState",
        "accelerate.state.PartialState",
    )},
    **{cls: frozenset({"is_global_zero"}) for cls in (
        "lightning.Trainer", "lightning.pytorch.Trainer", "pytorch_lightning.Trainer", "lightning.Fabric",
        "lightning.fabric.Fabric", "lightning_fabric.Fabric",
    )},
    **{cls: frozenset({"is_world_process_zero"}) for cls in ("transformers.Trainer", "transformers.trainer.Trainer")},
}
# The flags of the frameworks' base classes, read on `self` of a subclass (kinds of `regions.frameworks`).
FRAMEWORK_RANK_ZERO_FLAGS: dict[str, frozenset[str]] = {"hf-trainer": frozenset({"is_world_process_zero"})}
# Functions that start worker processes, each running the function handed at this position: torch 2.x
# torch/multiprocessing/spawn.py (`spawn(fn, args, nprocs, ...)`, `start_processes(fn, ...)`). The
# caller's own code before the call runs in the one parent process, which the workers do not run.
PROCESS_STARTERS: dict[str, int] = {
    "torch.multiprocessing.spawn": 0, "torch.multiprocessing.spawn.spawn": 0,
    "torch.multiprocessing.start_processes": 0, "torch.multiprocessing.spawn.start_processes": 0,
}


# -- Frameworks: the methods they call once per step, and what they keep of them ----------------
# (read by `regions.frameworks`; which framework a class belongs to is decided from its bases).
# Sources, as read: Lightning-AI/pytorch-lightning at 6694c3d (1.8.2) and at 00ae698 (2.x),
# pytorch/ignite at 19afc24 (0.4.0) and e1e1e5f (0.6.0), huggingface/accelerate at cac1ed4
# (0.17.0.dev0), huggingface/transformers' trainer.py (4.x), huggingface/diffusers at 58eb52c
# (0.40.0.dev0), dmlc/dgl at 3d16000 (2.5).

class FrameworkHook(NamedTuple):
    grad: str  # the grad mode the framework calls it under: "on", "off", "maybe" (either, by caller)
    evaluation: bool  # an evaluation or prediction step: its outputs are evaluation outputs
    per_step: bool = True  # False: once per epoch or stage (`on_validation_epoch_end`)
    # the parameters (by name) the framework hands values that may carry autograd history (unless
    # annotated with a type that is no tensor: `output: int`), and, where such a value is a tuple,
    # the one element that may (ignite's `(y_pred, y)`: the targets are data)
    history_params: tuple[str, ...] = ()
    history_element: int | None = None
    # the framework calls it to gather state over the epoch (a metric's `update`): what it keeps is
    # its purpose, only a graph kept with it is a leak
    accumulates: bool = False


# Lightning 1.x and 2.x (lightning/pytorch/loops/training_epoch_loop.py, evaluation_loop.py,
# prediction_loop.py): `training_step` and the training-batch hooks run with grad on; the evaluation
# and prediction loops run under `_no_grad_context` (`torch.no_grad()` or `torch.inference_mode()`),
# hooks included; `BasePredictionWriter.write_on_batch_end` is called from `on_predict_batch_end`.
_LIGHTNING_TRAIN = ("training_step", "on_train_batch_start", "on_train_batch_end", "on_before_backward",
                    "on_after_backward", "on_before_optimizer_step", "optimizer_step", "on_before_zero_grad")
_LIGHTNING_EVAL = ("validation_step", "test_step", "predict_step", "on_validation_batch_start",
                   "on_validation_batch_end", "on_test_batch_start", "on_test_batch_end", "on_predict_batch_start",
                   "on_predict_batch_end", "write_on_batch_end")
LIGHTNING_HOOKS: dict[str, FrameworkHook] = {
    **{name: FrameworkHook("on", False) for name in _LIGHTNING_TRAIN},
    **{name: FrameworkHook("off", True) for name in _LIGHTNING_EVAL},
}
# Any other hook of an evaluation stage (`on_validation_epoch_end`) runs once per stage, under no_grad.
LIGHTNING_EVAL_PREFIXES = ("on_validation_", "on_test_", "on_predict_")
# Steps a LightningModule inherits that run its own forward: `LightningModule.predict_step` is
# `return self(batch)` (1.x, lightning/pytorch/core/module.py; 2.x: `batch = kwargs.get("batch",
# args[0]); return self(batch)`). Lightning's predict loop calls it without grad (above); a call of
# `model.predict_step(batch, i)` in the project's own code runs the forward under the caller's grad mode.
LIGHTNING_FORWARD_STEPS = frozenset({"predict_step"})


class KeptReturn(NamedTuple):
    when_overridden: str | None  # the hook whose override makes the framework keep them (None: always)
    keeper: str  # who keeps them, in words, for messages
    detached_keys: tuple[str, ...] = ()  # the entries of a returned dict it detaches first
    element: int | None = None  # of a returned tuple, the one element it keeps (None: all it returns)
    on_device: bool = True  # kept where it was returned (False: moved to the CPU first)


# Step returns that Lightning keeps until the end of the epoch or of the run: a kept value with
# autograd history keeps its graph that long.


LIGHTNING_KEPT_RETURNS: dict[str, KeptReturn] = {
    # Lightning < 2.0 only (2.0 removed the `*_epoch_end(outputs)` hooks and raises on an override).
    # 1.8.2, src/pytorch_lightning/loops/epoch/training_epoch_loop.py: `if is_overridden("training_epoch_end",
    # ...): self._outputs.append(batch_output)`, where loops/optimization/optimizer_loop.py `ClosureResult`
    # detaches only the "loss" entry (`closure_loss.detach().clone()`) and keeps the other entries as returned.
    "training_step": KeptReturn("training_epoch_end", "Lightning < 2.0 keeps every return for `training_epoch_end`", ("loss",)),
    # 1.8.2, loops/epoch/evaluation_epoch_loop.py: `if self._should_track_batch_outputs_for_epoch_end() and
    # output is not None: self._outputs.append(output)`, tracked when `validation_epoch_end` (`test_epoch_end`)
    # is overridden, nothing detached.
    "validation_step": KeptReturn("validation_epoch_end", "Lightning < 2.0 keeps every return for `validation_epoch_end`"),
    "test_step": KeptReturn("test_epoch_end", "Lightning < 2.0 keeps every return for `test_epoch_end`"),
    # 1.8.2 loops/epoch/prediction_epoch_loop.py and 2.x src/lightning/pytorch/loops/prediction_loop.py:
    # `self._predictions[dataloader_idx].append(move_data_to_device(predictions, torch.device("cpu")))`
    # while `return_predictions` (the default of `Trainer.predict`, except under spawn strategies): moved
    # to the CPU, not detached, kept until `predict` returns.
    "predict_step": KeptReturn(
        None, "`Trainer.predict` keeps every return (moved to the CPU, not detached)", on_device=False
    ),
}

# ignite 0.4 to 0.6 (ignite/metrics/metric.py): `Metric.iteration_completed` runs once per iteration
# (under `@torch.no_grad()`) and calls `self.update(output)` with the engine's `state.output`, by
# convention `(y_pred, y)`, whose `y_pred` a training process function returns with its graph; and
# users call `metric.update((y_pred, y))` from their own training loops with grad on. So `update`
# runs once per step under either grad mode, and what it keeps of `y_pred` keeps the graph unless it
# detaches: ignite's own fixes add `.detach()` there (metrics/nlp/perplexity.py in 0.6,
# contrib/metrics/regression/canberra_metric.py in 0.5, metrics/epoch_metric.py in 0.4), and 0.6's
# `_BaseRegression.update` detaches both elements before its subclasses' `_update` sees them.
IGNITE_METRIC_PACKAGES = ("ignite.metrics.", "ignite.contrib.metrics.")
IGNITE_METRIC_HOOKS: dict[str, FrameworkHook] = {
    "update": FrameworkHook("maybe", False, history_params=("output",), history_element=0, accumulates=True),
}
# ignite 0.4 to 0.6 (ignite/engine/engine.py `Engine._run_once_on_dataset`): `self.state.output =
# self._process_function(self, self.state.batch)`, once per batch, with no grad context of its own: the
# function handed to `Engine(...)` runs under the grad mode of the code that calls `engine.run(...)`, and
# what it returns becomes `engine.state.output`, which the metrics attached to the engine read. ignite's
# own evaluators enter `torch.no_grad()` in their step (ignite/engine/__init__.py
# `supervised_evaluation_step`); a process function that never differentiates is such an evaluator's step.
IGNITE_PROCESS_FUNCTION = FrameworkHook("on", False)

# Hugging Face transformers 4.x (src/transformers/trainer.py): `training_step` and `compute_loss` run
# with grad; the base `prediction_step` enters `torch.no_grad()` itself, so an override runs with grad
# unless it does the same; `TrainerCallback` hooks are called outside any grad context.
HF_TRAINER_HOOKS: dict[str, FrameworkHook] = {
    "training_step": FrameworkHook("on", False),
    "compute_loss": FrameworkHook("on", False),
    "prediction_step": FrameworkHook("on", True),
}
HF_CALLBACK_HOOKS: dict[str, FrameworkHook] = {
    "on_step_begin": FrameworkHook("on", False),
    "on_step_end": FrameworkHook("on", False),
    "on_substep_end": FrameworkHook("on", False),
    "on_evaluate": FrameworkHook("on", True),
    "on_prediction_step": FrameworkHook("on", True),
}

# fairseq 0.x (fairseq/trainer.py): the Trainer calls a task's `train_step` with grad, and its
# `valid_step` inside `torch.no_grad()`; `inference_step` runs under no_grad too.
FAIRSEQ_HOOKS: dict[str, FrameworkHook] = {
    "train_step": FrameworkHook("on", False),
    "valid_step": FrameworkHook("off", True),
    "inference_step": FrameworkHook("off", True),
}
# A criterion (a `FairseqCriterion` subclass): fairseq 0.9 to 0.12, fairseq/trainer.py `Trainer.train_step`
# runs, for every micro-batch of an update, `loss, sample_size_i, logging_output = self.task.train_step(...)`
# (`FairseqTask.train_step` returns what `criterion(model, sample)` returned, after its backward) and
# `logging_outputs.append(logging_output)`; after the update `task.reduce_metrics(logging_outputs,
# criterion)` sums them into the epoch's running meters (fairseq/logging/meters.py `AverageMeter.update`:
# `self.sum = self.sum + (val * n)`). `valid_step` runs the criterion under `torch.no_grad()`.
FAIRSEQ_CRITERION_HOOKS: dict[str, FrameworkHook] = {
    "forward": FrameworkHook("maybe", False),
}
FAIRSEQ_CRITERION_KEPT_RETURNS: dict[str, KeptReturn] = {
    "forward": KeptReturn(None, "fairseq's Trainer keeps every logging output and sums it into its meters", element=2),
}

# -- Graph objects that hold tensors ------------------------------------------------------------
# DGL 0.4 to 2.5 (python/dgl/heterograph.py): a graph keeps the feature tensors written into its
# frames (`g.ndata["h"] = h`, `edata`, `srcdata`, `dstdata`) for as long as the graph lives, so a
# graph a training loop reuses keeps each step's activations, graph included, until they are
# overwritten; message passing (`g.update_all`) reads them, so they must not be detached. Inside
# `with g.local_scope():` "any out-place mutation to the feature data will not reflect to the
# original graph": what is written there dies with the scope.
GRAPH_FEATURE_FRAMES = frozenset({"ndata", "edata", "srcdata", "dstdata"})
GRAPH_LOCAL_SCOPES = frozenset({"local_scope"})

# -- Inference pipelines ------------------------------------------------------------------------
# diffusers 0.x to 0.40 (src/diffusers/pipelines/*/pipeline_*.py): every pipeline decorates its
# `__call__` with `@torch.no_grad()`; its other methods (`encode_prompt`, `prepare_latents`,
# `decode_latents`) and any method a subclass adds are not decorated, and pipelines are never
# trained: a model run in such a method, outside `no_grad`, records a graph nothing backwards.
# A pipeline class is one of the package whose name ends in "Pipeline" (`DiffusionPipeline`,
# `StableDiffusionPipeline`, ...).
INFERENCE_PIPELINE_PACKAGES = ("diffusers.",)

# -- Training wrappers: methods that differentiate or hand back what they are given --------------
# Classes (as imported) whose `backward(x)` differentiates its first argument, not the receiver:
# accelerate 0.x to 1.x (src/accelerate/accelerator.py `Accelerator.backward(loss, **kwargs)`), and
# Lightning Fabric 2.x (src/lightning/fabric/fabric.py `Fabric.backward(tensor, *args, model=None)`).
BACKWARD_OF_ARGUMENT = frozenset({
    "accelerate.Accelerator", "accelerate.accelerator.Accelerator", "lightning.Fabric", "lightning.fabric.Fabric",
    "lightning_fabric.Fabric",
})
# Methods that return what they are handed, history included, where only one process runs:
# accelerate 0.17 (src/accelerate/utils/operations.py `gather`): `else: return tensor` when not
# distributed; `Accelerator.gather_for_metrics` calls `gather`, `reduce` and `pad_across_processes`
# return their input unchanged in a single process too.
HISTORY_PASSING_METHODS: dict[str, frozenset[str]] = {
    cls: frozenset({"gather", "gather_for_metrics", "reduce", "pad_across_processes"})
    for cls in ("accelerate.Accelerator", "accelerate.accelerator.Accelerator")
}
# Methods that hand back the objects they are given, prepared, in the order given (one alone as itself):
# accelerate 0.x to 1.x (src/accelerate/accelerator.py `Accelerator.prepare(*args)`: "the same objects,
# in the same order"; an optimizer comes back an `AcceleratedOptimizer`, a scheduler an
# `AcceleratedScheduler`, a module a module).
PREPARING_METHODS: dict[str, frozenset[str]] = {
    cls: frozenset({"prepare"}) for cls in ("accelerate.Accelerator", "accelerate.accelerator.Accelerator")
}
# Attributes a framework's base class sets on its subclasses, and the class they hold: transformers
# 4.30+ (src/transformers/trainer.py `create_accelerator_and_postprocess`: `self.accelerator =
# Accelerator(**args)`), inherited by trl's trainers.
FRAMEWORK_ATTRIBUTES: dict[str, dict[str, str]] = {
    "hf-trainer": {"accelerator": "accelerate.Accelerator"},
}


# -- Metrics whose states grow with every update ----------------------------------------------------
# torchmetrics (Lightning-AI/torchmetrics, src/torchmetrics/metric.py, 0.x to 1.x): `add_state(name,
# default=[], dist_reduce_fx="cat")` makes a list state that every `update` appends the batch's tensors to,
# on the device they came from, until `reset()` (`compute()` empties nothing); `compute_on_cpu=True` moves
# list states to the CPU after each update. A class deriving from one of these bases that adds a list
# state grows the same way.
METRIC_BASES = frozenset({"torchmetrics.Metric", "torchmetrics.metric.Metric"})
METRIC_PACKAGE = "torchmetrics."
# torchmetrics classes whose states are such lists ("cat" states), from torchmetrics' sources. The curve
# family keeps lists only with `thresholds=None` (the default); with a number of thresholds it keeps a
# fixed-size confusion tensor.
LIST_STATE_METRICS = {
    "AUROC": True, "BinaryAUROC": True, "MulticlassAUROC": True, "MultilabelAUROC": True,
    "ROC": True, "BinaryROC": True, "MulticlassROC": True, "MultilabelROC": True,
    "PrecisionRecallCurve": True, "BinaryPrecisionRecallCurve": True,
    "MulticlassPrecisionRecallCurve": True, "MultilabelPrecisionRecallCurve": True,
    "AveragePrecision": True, "BinaryAveragePrecision": True, "MulticlassAveragePrecision": True,
    "MultilabelAveragePrecision": True,
    "CatMetric": False, "MeanAveragePrecision": False, "SpearmanCorrCoef": False, "KendallRankCorrCoef": False,
    "CalibrationError": False, "BinaryCalibrationError": False, "MulticlassCalibrationError": False,
    "RetrievalMAP": False, "RetrievalMRR": False, "RetrievalNormalizedDCG": False, "RetrievalPrecision": False,
    "RetrievalRecall": False, "KernelInceptionDistance": False, "BERTScore": False,
}  # class -> whether `thresholds=<number>` turns the lists into a fixed-size tensor


# -- Hugging Face models whose forward returns a key/value cache --------------------------------------
# transformers 4.x: the generative models whose forward builds and returns every layer's key/value cache
# (`past_key_values`) while `use_cache` is on, which their configs turn on by default (`use_cache=True` in
# GPT2Config, LlamaConfig, T5Config, BartConfig, ...): the causal LMs (`*ForCausalLM`; GPT-2's and CTRL's
# `*LMHeadModel`, modeling_gpt2.py `GPT2LMHeadModel.forward` returning `presents`) and the encoder-decoder
# generators (`*ForConditionalGeneration`, `AutoModelForSeq2SeqLM`, Marian's `MarianMTModel`:
# modeling_t5.py `T5Stack.forward`, `use_cache = use_cache if use_cache is not None else
# self.config.use_cache`, its decoder's `present_key_value_states` returned as `past_key_values`).
CACHED_LM_SUFFIXES = ("ForCausalLM", "ForConditionalGeneration", "ForSeq2SeqLM")
CACHED_LM_CLASSES = frozenset({"GPT2LMHeadModel", "GPT2DoubleHeadsModel", "CTRLLMHeadModel", "MarianMTModel"})


def returns_kv_cache(qualified: str) -> bool:
    """Is `qualified` (`transformers.GPT2LMHeadModel.from_pretrained`, resolved) a transformers model
    class, or a method of one, whose forward returns a key/value cache while `use_cache` is on?"""
    if not qualified.startswith("transformers."):
        return False
    return any(
        part.endswith(CACHED_LM_SUFFIXES) or part in CACHED_LM_CLASSES for part in qualified.split(".")[1:]
    )
