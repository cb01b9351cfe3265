"""Start verification children and make sure they end.

Two ways to start one, same child code (`child.main`):

* `ForkServer` (POSIX): a helper process imports torch once, then forks one
  child per job. Importing torch takes ~2 s; a directory of test cases would
  spend most of its time there. The helper runs no torch op before forking
  (no thread pools, no CUDA context), so the fork is safe; each child makes
  its own.
* `Spawn` (elsewhere, or `MEMLINT_VERIFY_SPAWN=1`): `python -c` per job.

Either way each child leads a process group (session) of its own, so a
timeout kills it with everything it started (DataLoader workers), and it is
always reaped.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_PRELUDE = f"import sys; sys.path.insert(0, {_ROOT!r}); "
_SPAWN = _PRELUDE + "from memlint.verify.child import main; sys.path.remove({root!r}); main(sys.argv[1])".format(root=_ROOT)
_SERVER = _PRELUDE + "from memlint.verify.launch import serve; sys.path.remove({root!r}); serve()".format(root=_ROOT)


def child_env(device: str, threads: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"
    if threads and "OMP_NUM_THREADS" not in env:  # several scripts at once share the cores
        env["OMP_NUM_THREADS"] = threads
    if device == "cpu":
        env["CUDA_VISIBLE_DEVICES"] = ""  # the script must not find a GPU
    return env


def serve() -> None:
    """The fork server: one job (a config path) per line on stdin."""
    import torch  # noqa: F401 - the point: imported once, shared by every child

    # Imported lazily by the first optimizer or dispatch mode (~1 s each time).
    import torch._dynamo  # noqa: F401
    import torch.nn.functional  # noqa: F401
    import torch.optim  # noqa: F401
    import torch.utils.data  # noqa: F401

    from memlint.verify import child, trackers  # noqa: F401

    out = sys.stdout
    # A CUDA context made before fork() is unusable in the children: say so,
    # and the parent falls back to one `python -c` per job.
    out.write(f"ready {int(torch.cuda.is_initialized())}\n")
    out.flush()
    for line in sys.stdin:
        config = line.strip()
        if not config:
            continue
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the forked child
            try:
                os.setsid()
                child.main(config)
            finally:
                os._exit(70)
        out.write(f"pid {pid}\n")
        out.flush()
        _, status = os.waitpid(pid, 0)
        out.write(f"exit {pid} {status}\n")
        out.flush()


def _kill_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError, OSError):
        pass


class Job:
    """One running child: `poll()` -> None while it runs, then its exit code (negative: signal)."""

    def poll(self) -> int | None:  # pragma: no cover - interface
        raise NotImplementedError

    def kill(self) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def cleanup(self) -> None:
        """Kill whatever the child left running in its process group."""


class _SpawnJob(Job):
    def __init__(self, config: str, env: dict[str, str]) -> None:
        kwargs: dict = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
        if os.name == "posix":
            kwargs["start_new_session"] = True
        else:  # pragma: no cover
            kwargs["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        self.proc = subprocess.Popen([sys.executable, "-c", _SPAWN, config], **kwargs)

    def poll(self) -> int | None:
        return self.proc.poll()

    def kill(self) -> None:
        if os.name == "posix":
            _kill_group(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                pass
            _kill_group(self.proc.pid, signal.SIGKILL)
        self.proc.kill()
        self.proc.wait()

    def cleanup(self) -> None:
        if os.name == "posix":
            _kill_group(self.proc.pid, signal.SIGKILL)
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class Spawn:
    def __init__(self, device: str, threads: str | None = None) -> None:
        self.env = child_env(device, threads)

    def start(self, config: str) -> Job:
        return _SpawnJob(config, self.env)

    def close(self) -> None:
        pass


class ServerError(RuntimeError):
    pass


class _ForkedJob(Job):
    def __init__(self, server: "ForkServer", pid: int) -> None:
        self.server = server
        self.pid = pid
        self.status: int | None = None

    def poll(self) -> int | None:
        if self.status is None:
            self.status = self.server._exit_status(self.pid, 0.0)
        return self.status

    def kill(self) -> None:
        _kill_group(self.pid, signal.SIGTERM)
        deadline = time.monotonic() + 2
        while self.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        _kill_group(self.pid, signal.SIGKILL)
        if self.status is None:
            self.status = self.server._exit_status(self.pid, 30.0)
        if self.status is None:  # pragma: no cover - the server itself is stuck
            self.server.close()
            self.status = -signal.SIGKILL

    def cleanup(self) -> None:
        _kill_group(self.pid, signal.SIGKILL)


class ForkServer:
    def __init__(self, device: str, threads: str | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=child_env(device, threads),
            start_new_session=True,
            text=True,
            bufsize=1,
        )
        self._buffer = ""
        self._ready = False

    def _line(self, timeout: float) -> str | None:
        deadline = time.monotonic() + timeout
        while "\n" not in self._buffer:
            remaining = max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.proc.stdout], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 4096).decode()
            if not chunk:
                raise ServerError("the fork server exited")
            self._buffer += chunk
        line, self._buffer = self._buffer.split("\n", 1)
        return line

    def start(self, config: str) -> Job:
        if self.proc.poll() is not None:
            raise ServerError("the fork server exited")
        if not self._ready:
            line = self._line(180.0)  # `import torch`
            if line is None or not line.startswith("ready "):
                raise ServerError(f"the fork server did not start ({line!r})")
            if line != "ready 0":
                raise ServerError("importing torch initialised CUDA, so forked children could not use it")
            self._ready = True
        self.proc.stdin.write(config + "\n")
        self.proc.stdin.flush()
        line = self._line(60.0)
        if line is None or not line.startswith("pid "):
            raise ServerError(f"the fork server did not start the job ({line!r})")
        return _ForkedJob(self, int(line.split()[1]))

    def _exit_status(self, pid: int, timeout: float) -> int | None:
        try:
            line = self._line(timeout)
        except ServerError:
            return -signal.SIGKILL
        if line is None:
            return None
        _, got, status = line.split()
        if int(got) != pid:  # pragma: no cover - one job at a time
            raise ServerError(f"unexpected exit line {line!r}")
        status = int(status)
        if os.WIFSIGNALED(status):
            return -os.WTERMSIG(status)
        return os.WEXITSTATUS(status)

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            _kill_group(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


class Auto:
    """The fork server where it works; `python -c` per job where it does not."""

    def __init__(self, device: str, threads: str | None = None) -> None:
        self.device = device
        self.threads = threads
        if os.name == "posix" and hasattr(os, "fork") and not os.environ.get("MEMLINT_VERIFY_SPAWN"):
            self.current = ForkServer(device, threads)
        else:
            self.current = Spawn(device, threads)

    def start(self, config: str) -> Job:
        try:
            return self.current.start(config)
        except ServerError:
            if isinstance(self.current, Spawn):
                raise
            self.current.close()
            self.current = Spawn(self.device, self.threads)
            return self.current.start(config)

    def close(self) -> None:
        self.current.close()


def launcher(device: str, threads: str | None = None) -> Auto:
    return Auto(device, threads)
