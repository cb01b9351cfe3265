"""Programs and helpers that several test modules share, written once."""

from __future__ import annotations

import contextlib
import os
import sys
import textwrap
from pathlib import Path
from typing import Iterator

import pytest

# Test data kept in the project (a clone needs nothing beside it).
DATA = Path(__file__).resolve().parent / "data"
FP_REPROS = DATA / "fp_repros"  # false positives reduced from real libraries (tests/test_fp_repros.py)
SARIF_SCHEMA = DATA / "sarif" / "sarif-schema-2.1.0.json"  # the OASIS schema, see its NOTICE.md


@contextlib.contextmanager
def importable_module(folder: Path, prefix: str, source: str) -> Iterator[str]:
    """`source` written into `folder` as a module of a name no other test module uses, importable
    (and `folder` the working directory) while the context lasts; yields its name."""
    name = f"{prefix}_{abs(hash(str(folder))) % 10**8}"
    (folder / f"{name}.py").write_text(source)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        patch.syspath_prepend(str(folder))
        yield name
    sys.modules.pop(name, None)

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

# An op module whose autograd Function parks its inputs on ctx (ML007); a caller that
# keeps the op's result (ML001) keeps them too. LEAKY_OPS_FIXED saves them for backward.
LEAKY_OPS = """\
import torch


class ContextMatmul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.context = (x, w)
        return x @ w

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.context
        return grad @ w.t(), x.t() @ grad


def fused_matmul(x, w):
    return ContextMatmul.apply(x, w)
"""
LEAKY_OPS_FIXED = LEAKY_OPS.replace("ctx.context = (x, w)", "ctx.save_for_backward(x, w)").replace(
    "x, w = ctx.context", "x, w = ctx.saved_tensors"
)


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

# A helper of another file returns the output of the model it is handed (`suffix=""`) or detaches
# it (`suffix=".detach()"`); the trainer keeps what it returns.
REWARDS = """\
def get_reward(model, batch):
    return model(batch){suffix}
"""
POLICY_TRAIN = """\
from pkg.rewards import get_reward


def train(policy, loader, optimizer):
    rewards = []
    for batch in loader:
        reward = get_reward(policy, batch)
        policy.loss(batch).backward()
        optimizer.step()
        rewards.append(reward)
    return rewards
"""

# A moving average of the parameters computed outside `no_grad`: called every step, it chains a graph.
EMA = """\
class EMA:
    def __init__(self, model, decay=0.999):
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}

    def update(self, model):
        for n, p in model.named_parameters():
            self.shadow[n] = self.decay * self.shadow[n] + (1 - self.decay) * p
"""
