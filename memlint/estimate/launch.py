"""The world of a distributed command, read from its launcher (no torch here: the
parent side of `memlint estimate -- COMMAND` imports this).

`torchrun --nnodes M --nproc-per-node N script.py ...` (or `python -m torch.distributed.run`)
is a world of M x N ranks; the estimate runs the script once, as rank 0, with the
variables torchrun would give it, and predicts that rank's GPU (`distributed`)."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass
class World:
    size: int
    rank: int = 0
    local_size: int = 0  # GPUs of one node; 0: all of them (one node)

    @property
    def per_node(self) -> int:
        return self.local_size or self.size

    def label(self) -> str:
        return f"rank {self.rank} of {self.size}"


def torchrun_world(argv: list[str], python: str) -> tuple[World, list[str]] | None:
    """(world, the script's own command) for `torchrun ...` / `python -m torch.distributed.run ...`;
    None for any other command. The world is nnodes x nproc-per-node; rank 0 is the one run."""
    launcher = os.path.basename(argv[0]) if argv else ""
    legacy = False  # torch.distributed.launch passes --local-rank to the script unless --use-env
    if launcher in ("torchrun", "torchrun.exe"):
        rest = argv[1:]
    elif "python" in launcher and argv[1:3] in (["-m", "torch.distributed.run"], ["-m", "torch.distributed.launch"]):
        python, rest, legacy = argv[0], argv[3:], argv[2] == "torch.distributed.launch"
    else:
        return None
    options: dict[str, str] = {}
    index = 0
    while index < len(rest) and rest[index].startswith("-"):
        key, eq, value = rest[index].lstrip("-").replace("_", "-").partition("=")
        if not eq and key not in _FLAGS and index + 1 < len(rest):
            value = rest[index + 1]
            index += 1
        options[key] = value
        index += 1
    nproc = options.get("nproc-per-node", "1")
    per_node = int(nproc) if nproc.isdigit() else 1  # "gpu" / "auto": as many as GPUs, unknown here
    nodes = options.get("nnodes", "1").split(":")[-1]  # "MIN:MAX": the most
    script = rest[index:]
    if legacy and "use-env" not in options and script:
        script = [script[0], "--local-rank=0", *script[1:]]
    if "no-python" in options:
        command = script
    elif "m" in options or "module" in options:
        command = [python, "-m", *script]
    else:
        command = [python, *script]
    return World(per_node * (int(nodes) if nodes.isdigit() else 1), 0, per_node), command


_FLAGS = ("standalone", "no-python", "module", "m", "run-path", "use-env")


def torchrun_env(world: World) -> dict[str, str]:
    """The variables torchrun gives the rank (a program reads them before init_process_group)."""
    return {"RANK": str(world.rank), "LOCAL_RANK": str(world.rank % world.per_node), "WORLD_SIZE": str(world.size),
            "LOCAL_WORLD_SIZE": str(world.per_node), "GROUP_RANK": str(world.rank // world.per_node),
            "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29500", "TORCHELASTIC_RUN_ID": "memlint-estimate"}
