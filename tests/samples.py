"""Programs and helpers that several test modules share, written once."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

# A training loop that keeps every step's loss with its graph: ML001 at KEPT_LINE, column 9.
LEAKY_TRAIN = textwrap.dedent(
    """\
    import torch


    def train(model, loader, opt):
        losses = []
        for x, y in loader:
            loss = model(x).sum()
            loss.backward()
            opt.step()
            losses.append(loss)
        return losses
    """
)
KEPT_LINE = 10
LEAKY_TRAIN_FIXED = LEAKY_TRAIN.replace("losses.append(loss)", "losses.append(loss.detach())")


def git_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment for a git (or pre-commit) run isolated from the user's configuration."""
    env = dict(os.environ)
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "PRE_COMMIT", "SKIP"):
        env.pop(name, None)
    env.update(
        GIT_CONFIG_GLOBAL=str(home / "gitconfig"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="memlint tests",
        GIT_AUTHOR_EMAIL="tests@memlint.invalid",
        GIT_COMMITTER_NAME="memlint tests",
        GIT_COMMITTER_EMAIL="tests@memlint.invalid",
        **extra,
    )
    return env
