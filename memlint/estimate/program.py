"""The parent side of `memlint estimate -- COMMAND`: run the program with the
fake GPU installed (verify's `sitecustomize` chain and process clean-up) and
read back the prediction the program's process wrote."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time

from memlint.verify import command as verify_command
from memlint.verify.script_run import file_tail

from memlint.estimate.bootstrap import CONFIG_ENV
from memlint.estimate.launch import World, torchrun_env, torchrun_world


class ProgramFailed(Exception):
    """The command wrote no prediction; `str()` is one line."""


def run(argv: list[str], gpu: tuple[str, int], steps: int, timeout: float, batch_size: int | None = None,
        optimizer: str | None = None, snapshot_file: str | None = None, world_size: int | None = None,
        dtype: str | None = None, checkpointing: bool = False) -> dict:
    world = None
    launched = torchrun_world(argv, sys.executable)
    if launched is not None:  # torchrun's ranks: its rank 0 is run, in this process tree
        world, argv = launched
    if world_size:
        world = World(world_size, 0, world.per_node if world else 0)
    workdir = tempfile.mkdtemp(prefix="memlint-estimate-")
    try:
        verify_command.write_sitecustomize(workdir, installer="memlint.estimate.bootstrap")
        result_path = os.path.join(workdir, "result.json")
        config = os.path.join(workdir, "config.json")
        with open(config, "w", encoding="utf-8") as handle:
            json.dump({"argv": argv, "gpu": gpu[0], "capacity": gpu[1], "steps": steps, "result": result_path,
                       "batch_size": batch_size, "optimizer": optimizer, "dtype": dtype,
                       "checkpointing": checkpointing,
                       "snapshot": os.path.abspath(snapshot_file) if snapshot_file else None,
                       "world": [world.size, world.rank, world.local_size] if world else None},
                      handle)
        token = secrets.token_hex(8)
        # verify's environment (PYTHONPATH first, the run's token); no manifest: verify's hook stays off.
        env = verify_command.command_env(workdir, "", token, "cpu")
        env.pop(verify_command.MANIFEST_ENV, None)
        env[CONFIG_ENV] = config
        if world is not None:
            env.update(torchrun_env(world))
        output = os.path.join(workdir, "output.txt")
        started = time.monotonic()
        with open(output, "wb") as sink:
            try:
                proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT,
                                        env=env, start_new_session=True)
            except OSError as exc:
                raise ProgramFailed(f"cannot run {argv[0]!r}: {exc.strerror or exc}") from None
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        finally:
            verify_command.terminate(proc, token, {proc.pid})
        if not os.path.exists(result_path):
            tail = file_tail(output).strip().splitlines()
            last = tail[-1] if tail else "no output"
            if time.monotonic() - started >= timeout:
                raise ProgramFailed(f"no optimizer step within {timeout:.0f} s; the program's last line: {last}")
            raise ProgramFailed(f"the program ended (exit {proc.returncode}) without running fake: {last}")
        with open(result_path, encoding="utf-8") as handle:
            return json.load(handle)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
