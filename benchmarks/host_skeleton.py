"""Host memory a loss kept after backward holds: its graph skeleton, per iteration and per autograd node.

    python benchmarks/host_skeleton.py

`memlint verify` counts tensor storages (device memory), so it sees only the kept loss itself
(one 512-byte block per iteration); the autograd nodes of its graph live in the host's heap.
This script measures them with glibc's malloc statistics (`mallinfo2`: bytes in use, small and
mmapped blocks), on CPU: for MLPs of growing depth it keeps each iteration's loss after
backward, detached or with its graph, and prints the host bytes per iteration and, from the
difference, per autograd node of the graph (the `AccumulateGrad` nodes of the parameters are
shared by every iteration's graph, so they are not counted). Linux with glibc only. Not a test.

Result (torch 2.13 CPU, Python 3.11, x86-64): about 750 bytes per node; a two-layer MLP's loss
(7 nodes) keeps about 5 KiB per iteration. The numbers ML001's documentation quotes.
"""

from __future__ import annotations

import ctypes
import gc

import torch


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")
    ]


_LIBC = ctypes.CDLL("libc.so.6")
_LIBC.mallinfo2.restype = _Mallinfo2
ITERATIONS = 2000


def heap_in_use() -> int:
    gc.collect()
    info = _LIBC.mallinfo2()
    return info.uordblks + info.hblkhd


def nodes_per_iteration(loss: torch.Tensor) -> int:
    """The graph's nodes that each iteration creates anew (all but the parameters' AccumulateGrad)."""
    seen, stack = set(), [loss.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(fn for fn, _ in node.next_functions)
    return sum(type(n).__name__ != "AccumulateGrad" for n in seen)


def host_bytes_per_iteration(hidden_layers: int, keep_graph: bool) -> tuple[float, int]:
    torch.manual_seed(0)
    layers: list[torch.nn.Module] = []
    for _ in range(hidden_layers):
        layers += [torch.nn.Linear(16, 16), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers, torch.nn.Linear(16, 4))
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))

    def step() -> torch.Tensor:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        return loss

    for _ in range(200):  # optimizer state, allocator caches: once, not per iteration
        step()
    kept = []
    before = heap_in_use()
    for _ in range(ITERATIONS):
        loss = step()
        kept.append(loss if keep_graph else loss.detach())
    return (heap_in_use() - before) / ITERATIONS, nodes_per_iteration(loss)


def main() -> None:
    print("| Linear layers | nodes per iteration | host bytes/iter, detached | with the graph kept | per node |")
    print("|---|---|---|---|---|")
    for hidden in (1, 3, 10):
        detached, _ = host_bytes_per_iteration(hidden, keep_graph=False)
        kept, nodes = host_bytes_per_iteration(hidden, keep_graph=True)
        print(f"| {hidden + 1} | {nodes} | {detached:.0f} | {kept:.0f} | {(kept - detached) / nodes:.0f} |")


if __name__ == "__main__":
    main()
