"""`torch.save` and `torch.load` of fake tensors in a fake run.

Fake tensors have no data, so nothing of them is written. A program may still read back
what it saved in the same run: a data set's processing cache (PyTorch Geometric saves
its processed graph and loads it at once), the best checkpoint reloaded at the end. So
what is saved is kept in the process and `torch.load` gives it back:

* saved to a path: the file is not written (an earlier real file stays as it was); a load
  of that path in this run gets the saved object.
* saved into a buffer or an open file: a one-line placeholder is written instead (the
  program may copy the buffer to a file itself); a load of anything that starts with the
  placeholder gets the saved object. A placeholder left by an earlier run (its object is
  gone) stops the run with one line that names the file, instead of a load error.

Each load gives copies, as torch.load makes new tensors (on `map_location` when it names
a device), so the loaded tensors take memory where the program puts them. Both kinds
of save are listed in the report (`scalars`).
"""

from __future__ import annotations

import copy
import os
import uuid

import torch
from torch._subclasses.fake_tensor import FakeTensor
from torch.utils._pytree import tree_map_only

from memlint.estimate import scalars
from memlint.estimate.tracker import StepTracker, user_site

# What a save into a buffer writes, then a token that names the object in this process.
PLACEHOLDER = b"memlint estimate placeholder: fake tensors saved by torch.save in a fake run, no data\n"


class PlaceholderFile(RuntimeError):
    """`torch.load` of a placeholder whose object this process does not have (an earlier run's)."""


class Saved:
    """What the program saved from fake tensors, by path and by placeholder token."""

    def __init__(self, tracker: StepTracker) -> None:
        self.tracker = tracker
        self.objects: dict[str, object] = {}

    def install(self, patch) -> None:
        """Replace torch.save and torch.load (`patch(owner, name, value)` restores them on exit)."""
        patch(torch, "save", self._save(torch.save))
        patch(torch, "load", self._load(torch.load))

    def _save(self, save):
        def save_unless_fake(obj, f, *args, **kwargs):
            if not scalars.holds_fake(obj, FakeTensor):
                return save(obj, f, *args, **kwargs)
            site = user_site() or "?"
            path = _path(f)
            if path is not None:
                self.objects[path] = obj
                self.tracker.note_use(scalars.SAVE, site, None)
            elif hasattr(f, "write"):
                token = uuid.uuid4().hex
                f.write(PLACEHOLDER + token.encode() + b"\n")
                self.objects[token] = obj
                self.tracker.note_use(scalars.SAVE_BUFFER, site, None)
            return None

        return save_unless_fake

    def _load(self, load):
        def load_saved(f, map_location=None, *args, **kwargs):
            path = _path(f)
            if path is not None and path in self.objects:
                return _copied(self.objects[path], map_location)
            head = _head(f)
            if not head.startswith(PLACEHOLDER):
                return load(f, map_location, *args, **kwargs)
            token = head[len(PLACEHOLDER):].split(b"\n")[0].decode(errors="replace")
            if token not in self.objects:
                name = path or getattr(f, "name", None) or "a buffer"
                raise PlaceholderFile(f"{name} holds a placeholder that an earlier `memlint estimate` run wrote in "
                                      "place of fake tensors (no data): delete it, or let the program write it again")
            return _copied(self.objects[token], map_location)

        return load_saved


def _path(f) -> str | None:
    if isinstance(f, (str, os.PathLike)):
        return os.path.abspath(os.fspath(f))
    return None


def _head(f) -> bytes:
    """The first bytes of a path or a readable, seekable file, leaving its position where it was."""
    size = len(PLACEHOLDER) + 40
    if isinstance(f, (str, os.PathLike)):
        try:
            with open(f, "rb") as handle:
                return handle.read(size)
        except OSError:
            return b""
    if not all(hasattr(f, name) for name in ("read", "seek", "tell")):
        return b""
    try:
        position = f.tell()
        head = f.read(size)
        f.seek(position)
    except (OSError, ValueError):
        return b""
    return head if isinstance(head, bytes) else b""


def _copied(obj, map_location):
    """A load's result: new tensors of the saved ones, on `map_location` where it names a device."""
    loaded = copy.deepcopy(obj)
    if isinstance(map_location, (str, torch.device)):
        loaded = tree_map_only(torch.Tensor, lambda t: t.to(map_location), loaded)
    return loaded
