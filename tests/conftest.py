"""Shared fixtures: the leaky sample project that `memlint verify -- COMMAND` runs."""

from __future__ import annotations

import importlib.util
import json
import socket
import sys
from pathlib import Path
from typing import Callable

import pytest
from click.testing import CliRunner

LEAKY_PROJECT = Path(__file__).resolve().parent / "fixtures" / "leaky_project"
PYTHON = sys.executable  # the command's `python`: this interpreter, whatever is first on PATH


CPU_TORCH = "pip install torch --index-url https://download.pytorch.org/whl/cpu"


def pytest_sessionstart(session: pytest.Session) -> None:
    """The test extra leaves torch out (PyPI's build brings CUDA, about 3 GB): without one, stop
    with how to install a CPU build rather than fail or skip the tests that run scripts."""
    if importlib.util.find_spec("torch") is None:
        pytest.exit(f"the tests need torch; install a CPU build first: {CPU_TORCH}", returncode=2)


@pytest.fixture
def leaky_project(monkeypatch: pytest.MonkeyPatch) -> Path:
    """tests/fixtures/leaky_project as the current directory (PATHS default to `.`)."""
    monkeypatch.chdir(LEAKY_PROJECT)
    return LEAKY_PROJECT


def free_port() -> str:
    """A TCP port nothing listens on now, for a test's torchrun rendezvous: a fixed one collides
    with any other test suite running on the machine."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return str(probe.getsockname()[1])


VerifyCommand = Callable[..., tuple[int, list[dict]]]


@pytest.fixture
def verify_command(leaky_project: Path) -> VerifyCommand:
    """`memlint verify --device cpu -n 8 --format json [OPTIONS] -- COMMAND` in the sample
    project: (exit code, items)."""
    from memlint.cli import main

    def run(*command: str, options: tuple[str, ...] = ()) -> tuple[int, list[dict]]:
        args = ["verify", "--device", "cpu", "-n", "8", "--timeout", "120", "--format", "json", *options, "--", *command]
        result = CliRunner().invoke(main, args, catch_exceptions=False)
        return result.exit_code, json.loads(result.stdout)

    return run
