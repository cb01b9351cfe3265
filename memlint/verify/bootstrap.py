"""The child side of `memlint verify -- COMMAND`: runs in every Python process
the command starts, installed by a generated `sitecustomize` (see
`command.write_sitecustomize`) on `PYTHONPATH`.

What it does, with nothing but the standard library until a probe first runs:

* reads the manifest (`MEMLINT_VERIFY_MANIFEST`): for each project file that
  holds a finding, its instrumented source (same lines as on disk) and its
  probes;
* puts an import hook first on `sys.meta_path`: a module whose file is in the
  manifest is compiled from the instrumented source under its real path
  (`python -m pkg.train` goes through it too, as do `pytest`'s imports of the
  project and `torch.multiprocessing.spawn`'s children);
* `python SCRIPT` does not import its script: when `sys.argv[0]` is a
  manifest file, the script runs here, instrumented, as `__main__`, and the
  process exits with its exit code (`runpy.run_path`, which multiprocessing
  uses to re-create `__main__` in a spawned child, is redirected the same
  way);
* the hooks (`__memlint_loop__`, ...) are builtins, so that code compiled
  from the instrumented source finds them in whatever globals it runs with;
* each process streams its events to a file of its own
  (`p<pid>.jsonl`, `child.py`'s events plus `hello` with its pid, parent
  and rank, and `imp` when an instrumented module is loaded); the
  rank comes from `RANK` (torchrun, accelerate) or, once
  `torch.distributed` is initialised (`torch.multiprocessing.spawn`),
  `get_rank()`;
* a library function that a framework's own loop calls once per iteration
  (the manifest's `library`, see `library_sites`) is wrapped when its module
  is imported: each call runs the per-call probe first;
* the tracker (CUDA or the live-storage tracker) is made at the first probe,
  recording allocation sites.

It never stops the process itself: the parent ends the whole run when every
probed site has its iterations, since one rank leaving early would leave the
others waiting in a collective.
"""

from __future__ import annotations

import atexit
import builtins
import importlib.abc
import importlib.machinery
import json
import os
import sys
import time
import traceback
import types

from memlint.verify import child

MANIFEST_ENV = "MEMLINT_VERIFY_MANIFEST"
TOKEN_ENV = "MEMLINT_VERIFY_TOKEN"


class _Events:
    """One results file per process (a forked child opens its own)."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.pid = -1
        self.handle = None
        self.ended = False
        self.rank: int | None = None

    def _open(self) -> None:
        self.pid = os.getpid()
        self.ended = False
        self.handle = open(os.path.join(self.directory, f"p{self.pid}.jsonl"), "a", buffering=1, encoding="utf-8")
        self.emit({"ev": "hello", "pid": self.pid, "ppid": os.getppid(),
                   "argv": sys.argv[:8], "rank": _env_rank()})

    def emit(self, event: dict) -> None:
        if self.pid != os.getpid():
            self._open()
        if event.get("ev") == "s":
            rank = self.current_rank()
            if rank is not None:
                event["r"] = rank
        try:
            self.handle.write(json.dumps(event) + "\n")
        except (OSError, ValueError):  # the run directory is gone: the parent stopped the run
            pass

    def current_rank(self) -> int | None:
        if self.rank is None:
            self.rank = _env_rank()
        if self.rank is None:
            dist = sys.modules.get("torch.distributed")
            try:
                if dist is not None and dist.is_available() and dist.is_initialized():
                    self.rank = int(dist.get_rank())
            except Exception:  # noqa: BLE001 - a rank we cannot read is no rank
                pass
        return self.rank

    def end(self, status: str, **extra) -> None:
        if not self.ended and self.pid == os.getpid():
            self.ended = True
            self.emit({"ev": "end", "status": status, **extra})


def _env_rank() -> int | None:
    for name in ("RANK", "LOCAL_RANK"):
        value = os.environ.get(name, "")
        if value.isdigit():
            return int(value)
    return None


class _LazyTracker:
    """The tracker, made (importing torch) at the first read."""

    sites = True

    def __init__(self, cfg: dict, events: _Events) -> None:
        self.cfg = cfg
        self.events = events
        self.real = None

    def _get(self):
        if self.real is None:
            from memlint.verify.trackers import make

            directory = self.cfg.get("snapshot_dir")
            snapshot = None
            if directory:
                rank = self.events.current_rank()
                snapshot = os.path.join(directory, f"rank{rank}.pickle" if rank is not None else f"pid{os.getpid()}.pickle")
            self.real = make(self.cfg["device"], self.cfg.get("limit_bytes"), sites=True, snapshot=snapshot)
            self.real.start()
            self.events.emit({"ev": "start", "device": self.real.describe(), "torch": sys.modules["torch"].__version__})
        return self.real

    def read(self):
        return self._get().read()

    def mark(self, probe: int) -> None:
        self._get().mark(probe)

    def allocations(self, probe: int) -> list:
        return self._get().allocations(probe)

    def counts(self, storage) -> bool:
        return self._get().counts(storage)

    @property
    def excludes_last(self) -> bool:
        return getattr(self._get(), "excludes_last", False)

    def to_host(self, value):
        if self.real is None:
            return value
        return getattr(self.real, "to_host", child._identity)(value)


class _Loader(importlib.machinery.SourceFileLoader):
    """A project module with a finding: compiled from its instrumented source."""

    def __init__(self, fullname: str, path: str, entry: dict, events: _Events) -> None:
        super().__init__(fullname, path)
        self.entry = entry
        self.events = events

    def get_code(self, fullname: str):
        self.events.emit({"ev": "imp", "file": self.path, "probes": self.entry["probes"]})
        return compile(self.entry["source"], self.path, "exec", dont_inherit=True)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, files: dict[str, dict], events: _Events) -> None:
        self.files = files
        self.events = events
        # A module `a.b.loops` lives in loops.py or loops/__init__.py: skip every other name cheaply.
        self.stems = {os.path.splitext(os.path.basename(p))[0] for p in files}
        self.stems |= {os.path.basename(os.path.dirname(p)) for p in files if p.endswith("__init__.py")}

    def find_spec(self, fullname, path=None, target=None):
        if fullname.rpartition(".")[2] not in self.stems:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not spec.origin or not spec.has_location:
            return None
        entry = self.files.get(os.path.realpath(spec.origin))
        if entry is None:
            return None
        spec.loader = _Loader(fullname, spec.origin, entry, self.events)
        return spec


class _LibraryFinder(importlib.abc.MetaPathFinder):
    """Wraps the probed functions of a library module once the module has run."""

    def __init__(self, sites: list[dict], events: _Events) -> None:
        self.by_module: dict[str, list[dict]] = {}
        for site in sites:
            self.by_module.setdefault(site["module"], []).append(site)
        self.events = events

    def find_spec(self, fullname, path=None, target=None):
        sites = self.by_module.get(fullname)
        if not sites:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        original, events = loader.exec_module, self.events

        def exec_module(module):
            original(module)
            for site in sites:
                _wrap_attribute(module, site["qualname"], site["probe"])
            events.emit({"ev": "imp", "file": os.path.realpath(getattr(module, "__file__", "") or fullname),
                         "probes": [site["probe"] for site in sites]})

        loader.exec_module = exec_module
        return spec


def _wrap_attribute(module: types.ModuleType, qualname: str, probe: int) -> None:
    import functools

    *owners, name = qualname.split(".")
    owner = module
    for part in owners:
        owner = getattr(owner, part, None)
    function = getattr(owner, name, None) if owner is not None else None
    if not callable(function):
        return  # another version of the library: the site is reported as not reached

    @functools.wraps(function)
    def probed(*args, **kwargs):
        builtins.__dict__[child.CALL_HOOK](probe)
        return function(*args, **kwargs)

    setattr(owner, name, probed)


def _run_main(path: str, entry: dict, events: _Events) -> None:
    """`python SCRIPT` with SCRIPT in the manifest: run it here, instrumented; never returns."""
    main = sys.modules["__main__"]
    main.__dict__.update({"__file__": path, "__cached__": None, "__spec__": None, "__loader__": None,
                          "__builtins__": builtins})
    if not sys.flags.safe_path:
        sys.path.insert(0, os.path.dirname(path))
    events.emit({"ev": "imp", "file": path, "probes": entry["probes"]})
    code_rc = 0
    try:
        exec(compile(entry["source"], path, "exec", dont_inherit=True), main.__dict__)
        events.end("finished")
    except SystemExit as exc:
        code = exc.code
        if code is None or isinstance(code, int):
            code_rc = code or 0
        else:
            print(code, file=sys.stderr)
            code_rc = 1
        events.end("exit", code=code if isinstance(code, (int, type(None))) else str(code))
    except BaseException:  # noqa: BLE001 - the script's failure: reported and shown as Python would
        code_rc = 1
        sys.excepthook(*sys.exc_info())
    _shutdown(code_rc)


def _shutdown(code_rc: int) -> None:
    """What the interpreter does at exit: join threads, run atexit, flush; then leave."""
    try:
        import threading

        threading._shutdown()  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001
        pass
    try:
        atexit._run_exitfuncs()
    except Exception:  # noqa: BLE001
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            pass
    os._exit(code_rc)


def _wrap_run_path(files: dict[str, dict], events: _Events) -> None:
    import runpy

    original = runpy.run_path

    def run_path(path_name, init_globals=None, run_name=None):
        entry = files.get(os.path.realpath(str(path_name))) if os.path.isfile(str(path_name)) else None
        if entry is None:
            return original(path_name, init_globals, run_name)
        name = run_name or "<run_path>"
        module = types.ModuleType(name)
        module.__dict__.update(init_globals or {})
        module.__dict__.update({"__file__": str(path_name), "__cached__": None, "__loader__": None, "__spec__": None})
        saved = sys.modules.get(name)
        sys.modules[name] = module
        events.emit({"ev": "imp", "file": os.path.realpath(str(path_name)), "probes": entry["probes"]})
        try:
            exec(compile(entry["source"], str(path_name), "exec", dont_inherit=True), module.__dict__)
        finally:
            if saved is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = saved
        return dict(module.__dict__)

    runpy.run_path = run_path


def _report_failures(events: _Events) -> None:
    previous = sys.excepthook

    def excepthook(kind, value, tb):
        if isinstance(value, child.StopVerification):
            events.end("stopped")
            return
        text = "".join(traceback.format_exception(kind, value, tb))
        lines = [[f.filename, f.lineno] for f in traceback.extract_tb(tb)]
        events.end("oom" if child.is_oom(value) else "error", error=text, lines=lines)
        previous(kind, value, tb)

    sys.excepthook = excepthook
    atexit.register(lambda: events.end("exit"))


def install() -> None:
    """Called by the generated sitecustomize in every Python process of the command."""
    path = os.environ.get(MANIFEST_ENV)
    if not path:
        return
    try:
        with open(path, encoding="utf-8") as handle:
            cfg = json.load(handle)
    except (OSError, ValueError):
        return  # the run is over (a process that outlived it): run as written
    files: dict[str, dict] = cfg["files"]
    events = _Events(cfg["results"])
    events._open()  # the hello: the parent knows every Python process of the command
    start = time.perf_counter()
    tracker = _LazyTracker(cfg, events)
    probes = child.Probes(cfg["probes"], cfg["iterations"], tracker, events.emit,
                          lambda: time.perf_counter() - start, stop=False, calls=cfg["calls"])
    builtins.__dict__.update({
        child.LOOP_HOOK: probes.loop,
        child.WHILE_HOOK: probes.while_,
        child.CALL_HOOK: probes.call,
        child.HOST_HOOK: tracker.to_host,
        child.STORE_HOOK: probes.store,
    })
    sys.meta_path.insert(0, _Finder(files, events))
    if cfg.get("library"):
        sys.meta_path.insert(0, _LibraryFinder(cfg["library"], events))
    _report_failures(events)
    _wrap_run_path(files, events)
    script = sys.argv[0] if sys.argv else ""
    if script and script not in ("-c", "-m") and os.path.isfile(script):
        entry = files.get(os.path.realpath(script))
        if entry is not None:
            _run_main(os.path.abspath(script), entry, events)
