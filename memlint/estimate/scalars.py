"""Where a fake value has to become a Python value, and what the fake run does then.

A fake tensor has shapes and no data. Host tensors made from real inputs stay real
(`tracker`), so most Python values a program reads are real; the rest come from the
emulated GPU. How such a value is used decides whether the run may go on:

* as a number (`.item()`, `float()`, `int()`) or in formatting (`f"{loss:.4f}"`):
  answered by a placeholder (1, 1.0, False) and listed in the report. A loss or a
  metric printed or logged does not change the memory of the next step. So is one value
  copied to NumPy (`loss.detach().cpu().numpy()`, a loss summed and printed on the host):
  an array of that placeholder, listed. A larger copy to NumPy stops the run.
* as an index, a slice bound or a size (`__index__`, `data[i:j]` with a tensor bound),
  or to decide an `if`/`while` in the program's own code: the run stops with one line.
  Guessing there changes shapes or what runs, and the prediction would be silently wrong
  (a slice bound of 1 made a batch of shape (64, 0) that "fitted").
* as the index of one element of a tensor (`x[b, i]` with `i` a 0-d integer tensor, read or
  written): the view has the same shape whichever element it is, so index 0 is answered
  and listed (a separation loss reordering its sources by the best permutation).

Truth values asked by installed libraries (a trainer's NaN filter, a scheduler) are
answered False and listed: stopping there would refuse every run of those libraries. So
are those asked in an evaluation (gradients off, after a module's evaluation forward):
an accuracy count or a "best so far" test decides what is printed or saved, not the
memory of a training step. For the same reason a small result copied to the host in an
evaluation (`(pred == y).cpu()`) is a real tensor of zeros, which a host loop reads fast.

`torch.save` of fake tensors writes no data (they have none; a half-written file would
fail the script's next run); what was saved is loaded back in the same run (`saving`),
and it is listed.
"""

from __future__ import annotations

import dis
import functools
import sys
from dataclasses import dataclass

VALUE, FORMAT, INDEX, TRUTH, ELEMENT = "value", "format", "index", "truth", "element index"
EVAL_TRUTH, EVAL_COPY, SAVE, SAVE_BUFFER = "evaluation truth", "evaluation copy", "save", "save into a buffer"
MASK_WRITE, NUMPY = "mask written back", "numpy"

# How each use is answered and named in the report.
DESCRIPTION = {VALUE: "read as a Python number", FORMAT: "formatted", TRUTH: "deciding a condition in library code",
               ELEMENT: "used as the index of one element (`x[b, i]`: a view of the same shape whichever it is)",
               EVAL_TRUTH: "deciding a condition in an evaluation",
               EVAL_COPY: "copied to the host in an evaluation (a tensor of zeros)",
               NUMPY: "copied to NumPy (one value: an array of the placeholder)",
               MASK_WRITE: "used as a boolean mask whose selection is written back through it (`x[m] = y[m]`), every "
                           "element taken as selected (the transient's upper bound; nothing else sees the count)",
               SAVE: "saved with torch.save (the file is not written; a load in this run gets them back)",
               SAVE_BUFFER: "saved with torch.save into a buffer or an open file (a one-line placeholder is written "
                            "instead: a file made of it holds no data)"}

_SUBSCRIPT_OPS = {"BINARY_SUBSCR", "STORE_SUBSCR", "DELETE_SUBSCR", "BUILD_SLICE", "BINARY_SLICE", "STORE_SLICE"}


class FakeValueNeeded(RuntimeError):
    """The program needs the data of a fake tensor to decide a shape or its control flow."""


def stop_message(kind: str) -> str:
    if kind == INDEX:
        return ("a value computed on the GPU is used as an index, a slice bound or a size, which decides "
                "shapes; fake tensors have no data (compute it on the host, from real Python or CPU values)")
    return ("a value computed on the GPU decides an `if` or a `while` of the program; fake tensors have no "
            "data and a guess would change what runs")


@dataclass
class ScalarUse:
    kind: str
    site: str
    answer: object
    count: int = 1


def subscripting(frame) -> bool:
    """Whether `frame` (the program's innermost frame) is indexing or slicing right now: a
    fake 0-d tensor read there is a slice bound or an index."""
    return frame is not None and _opname(frame.f_code, frame.f_lasti) in _SUBSCRIPT_OPS


@functools.lru_cache(maxsize=1024)
def _opname(code, offset: int) -> str:
    """The instruction at `offset` of `code` (a loop reads the same one many times)."""
    return next((i.opname for i in dis.get_instructions(code) if i.offset == offset), "")


def holds_fake(value, fake_type: type, depth: int = 6) -> bool:
    """Whether `value` (what `torch.save` is given: a tensor, a state dict, a dict of them, a
    module) holds a tensor of `fake_type`."""
    if isinstance(value, fake_type):
        return True
    if depth == 0:
        return False
    if isinstance(value, dict):
        return any(holds_fake(v, fake_type, depth - 1) for v in value.values())
    if isinstance(value, (list, tuple, set)):
        return any(holds_fake(v, fake_type, depth - 1) for v in value)
    state = getattr(value, "state_dict", None)  # a module or an optimizer saved whole
    if callable(state) and not isinstance(value, type):
        try:
            return holds_fake(state(), fake_type, depth - 1)
        except Exception:  # noqa: BLE001 - an object whose state_dict needs arguments: not ours to judge
            return False
    return False


def user_frame(is_plumbing) -> object:
    """The innermost frame that `is_plumbing(filename)` does not reject, or None."""
    frame = sys._getframe(1)
    while frame is not None:
        if not is_plumbing(frame.f_code.co_filename):
            return frame
        frame = frame.f_back
    return None
