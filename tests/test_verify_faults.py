"""`memlint verify -- COMMAND` when the command misbehaves: not found, exits at once,
bypasses the hook, exits before training, crashes, crashes on one rank, dies while
the other rank waits in a collective, or reads stdin, changes directory, forks a
worker and ignores SIGTERM. Each gives a clear verdict per finding, exit code 2 where
the command could not run, and leaves no process alive."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import PYTHON, VerifyCommand, free_port

from memlint.verify.command import alive


def by_file(items: list[dict], filename: str) -> list[dict]:
    return [i for i in items if i["filename"].endswith(filename)]


def pids_written(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()]


def test_command_not_found(verify_command: VerifyCommand) -> None:
    code, items = verify_command("memlint-no-such-command")
    assert code == 2
    assert items and all(i["verdict"] == "error" and "cannot run 'memlint-no-such-command'" in i["note"] for i in items)


def test_exits_at_once(verify_command: VerifyCommand) -> None:
    code, items = verify_command(PYTHON, "-c", "import sys; print('bad flag'); sys.exit(3)")
    assert code == 2
    assert all(i["verdict"] == "not_reached" and "exited with code 3" in i["note"] for i in items)
    assert "bad flag" in items[0]["error"]  # the command's output tail


def test_python_dash_I_skips_the_hook(verify_command: VerifyCommand) -> None:
    code, items = verify_command(PYTHON, "-I", "-c", "pass")
    assert code == 2
    assert "-I` skips sitecustomize" in items[0]["note"]


def test_sys_exit_before_training(verify_command: VerifyCommand) -> None:
    code, items = verify_command(PYTHON, "train.py", "exit")
    assert code == 0
    (item,) = by_file(items, "mypkg/loops.py")
    assert item["verdict"] == "not_reached" and "no process of the command imported this file" in item["note"]


def test_crash_in_the_loop(verify_command: VerifyCommand) -> None:
    code, items = verify_command(PYTHON, "train.py", "crash")
    assert code == 2
    (item,) = by_file(items, "mypkg/loops.py")
    assert item["verdict"] == "error" and item["iterations"] == 3
    assert "RuntimeError: diverged at step 3" in item["error"]


def test_stdin_chdir_fork_and_sigterm_ignored(verify_command: VerifyCommand, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    pids = tmp_path / "pids"
    monkeypatch.setenv("LEAKY_PIDS", str(pids))
    code, items = verify_command(PYTHON, "train.py", "hostile")
    assert code == 1
    (item,) = by_file(items, "mypkg/loops.py")
    assert item["verdict"] == "confirmed" and item["iterations"] == 8
    assert len(pids_written(pids)) == 2  # the script and its worker, both deaf to SIGTERM
    assert not [pid for pid in pids_written(pids) if alive(pid)]


def test_crash_on_one_rank(leaky_project: Path) -> None:
    from click.testing import CliRunner

    from memlint.cli import main

    args = ["verify", "--device", "cpu", "-n", "8", "train_ddp.py", "--", PYTHON, "-m", "torch.distributed.run",
            "--nproc-per-node", "2", "--master-port", free_port(), "train_ddp.py", "crash"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 2, result.output
    assert "rank 1  error" in result.output
    assert "RuntimeError: rank 1 diverged" in result.output
    assert "rank 0  " in result.output


def test_rank_dies_while_the_other_waits_in_a_collective(verify_command: VerifyCommand, leaky_project: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    monkeypatch.setenv("LEAKY_PORT", port)
    code, items = verify_command(PYTHON, "train_ddp.py", "hang", options=("train_ddp.py",))
    assert code == 2
    ranks = {i["rank"]: i for i in items}
    assert ranks[1]["verdict"] == "error" and "without reporting" in ranks[1]["note"] + ranks[1]["error"]
    # gloo notices the dead peer: rank 0's all_reduce raises, multiprocessing prints it and exits 1
    assert ranks[0]["verdict"] == "error" and "exited in the middle" in ranks[0]["error"]
    mine = f"LEAKY_PORT={port}".encode()
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _carries(int(p), "train_ddp.py", leaky_project, mine)]


def _carries(pid: int, script: str, project: Path, variable: bytes) -> bool:
    """Is `pid` a live process running `script` of `project` with `variable` (NAME=value) in its
    environment: one this test started, not another checkout's or another test's running meanwhile?"""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            command = handle.read()
        with open(f"/proc/{pid}/environ", "rb") as handle:
            environment = handle.read().split(b"\0")
        here = Path(os.readlink(f"/proc/{pid}/cwd"))
    except OSError:
        return False
    return (script.encode() in command and (here == project or project in here.parents) and variable in environment
            and alive(pid))
