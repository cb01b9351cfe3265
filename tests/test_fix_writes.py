"""`--fix` writes only what the user may write, keeps the file's owner and mode, and counts as
fixed only what reached the disk.

The suite runs as root in CI, and root may write any file: the checks that need a user who
cannot write a file run the CLI in a forked child that has switched to `nobody` (the modules
are already imported, so it needs no access to the virtual environment), on files in a
world-writable directory without the sticky bit, where a rename over another user's file
would succeed.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner
from samples import LEAKY_TRAIN

from memlint.cli import main

FIXED = LEAKY_TRAIN.replace("losses.append(loss)", "losses.append(loss.detach())")
NOBODY = 65534


def fix(*paths: str) -> dict:
    result = CliRunner().invoke(main, ["--no-cache", "--fix", *paths], catch_exceptions=False)
    return {"code": result.exit_code, "out": result.stdout, "err": result.stderr}


def fix_as_unprivileged(*paths: str) -> dict:
    """`memlint --fix PATHS` as a user who is not root: this one, or `nobody` in a forked child."""
    if os.geteuid() != 0:
        return fix(*paths)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never back into pytest
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            payload = fix(*paths)
        except PermissionError as exc:
            payload = {"skip": f"cannot switch to an unprivileged user here: {exc}"}
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            payload = {"crash": repr(exc)}
        os.write(write, json.dumps(payload).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        payload = json.loads(handle.read() or b'{"crash": "no answer"}')
    os.waitpid(pid, 0)
    if "skip" in payload:
        pytest.skip(payload["skip"])
    assert "crash" not in payload, payload["crash"]
    return payload


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A world-writable directory without the sticky bit, reachable by every user."""
    directory = Path(tempfile.mkdtemp(prefix="memlint-writes-", dir="/tmp" if os.path.isdir("/tmp") else None))
    os.chmod(directory, 0o777)
    fix(str(directory / "absent.py"))  # import every module of a run before a child drops privileges
    try:
        yield directory
    finally:
        shutil.rmtree(directory)


def other_users_file(directory: Path, name: str, mode: int) -> Path:
    """A leaking script that the user of `fix_as_unprivileged` does not own."""
    path = directory / name
    path.write_text(LEAKY_TRAIN)
    if os.geteuid() == 0:
        os.chown(path, 0, 0)
    os.chmod(path, mode)
    return path


def test_a_file_the_user_cannot_write_is_not_replaced(shared_dir: Path) -> None:
    locked = other_users_file(shared_dir, "locked.py", 0o444)
    before = os.stat(locked)
    result = fix_as_unprivileged(str(locked))
    assert result["code"] == 2
    assert result["err"] == f"memlint: error: {locked}: cannot write the fixes: Permission denied\n"
    assert f"{locked}:10:9: ML001" in result["out"]  # what the file still holds is reported
    assert "Fixed" not in result["out"]
    after = os.stat(locked)
    assert (after.st_ino, after.st_uid, after.st_gid, after.st_mode) == (before.st_ino, before.st_uid, before.st_gid, before.st_mode)
    assert locked.read_text() == LEAKY_TRAIN
    assert sorted(p.name for p in shared_dir.iterdir()) == ["locked.py"]  # no temporary file left


def test_fixed_counts_only_the_files_written(shared_dir: Path) -> None:
    locked = other_users_file(shared_dir, "locked.py", 0o444)
    mine = shared_dir / "mine.py"
    mine.write_text(LEAKY_TRAIN)
    if os.geteuid() == 0:
        os.chown(mine, NOBODY, NOBODY)
    result = fix_as_unprivileged(str(locked), str(mine))
    assert result["code"] == 2
    assert "Fixed 1 finding." in result["out"]
    assert mine.read_text() == FIXED and locked.read_text() == LEAKY_TRAIN


def test_a_writable_file_of_another_owner_keeps_its_owner(shared_dir: Path) -> None:
    """The user may write the file but not give a new file its owner: it is rewritten in place."""
    if os.geteuid() != 0:
        pytest.skip("needs root to create a file of another owner (CI runs as root)")
    shared = other_users_file(shared_dir, "shared.py", 0o666)
    before = os.stat(shared)
    result = fix_as_unprivileged(str(shared))
    assert result["code"] == 0, result
    assert "Fixed 1 finding." in result["out"]
    after = os.stat(shared)
    assert shared.read_text() == FIXED
    assert (after.st_ino, after.st_uid, after.st_gid, stat.S_IMODE(after.st_mode)) == (before.st_ino, 0, 0, 0o666)


def test_owner_and_mode_are_kept_by_a_replacement(tmp_path: Path) -> None:
    """Root fixing another user's file: the new file gets that owner and mode."""
    if os.geteuid() != 0:
        pytest.skip("needs root to create a file of another owner (CI runs as root)")
    path = tmp_path / "theirs.py"
    path.write_text(LEAKY_TRAIN)
    os.chown(path, NOBODY, NOBODY)
    os.chmod(path, 0o640)
    result = fix(str(path))
    assert result["code"] == 0, result
    after = os.stat(path)
    assert path.read_text() == FIXED
    assert (after.st_uid, after.st_gid, stat.S_IMODE(after.st_mode)) == (NOBODY, NOBODY, 0o640)
