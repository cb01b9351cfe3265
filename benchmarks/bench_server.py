"""Language server latency: from a change to a 2,000- or 10,000-line file to its diagnostics.

Starts `memlint server` over stdio with a real LSP client (pygls, as the tests
use) in a project of `--project-files` other modules (which the server's first
project scan reads in the background), opens a generated training module of
each size in `--lines` (timing didOpen to its first diagnostics), then makes
`--changes` edits one at a time, the first of them while the project scan runs
(each toggles whether one loop keeps its loss with its graph, so the
diagnostics really change) and times each from sending
`textDocument/didChange` to receiving `textDocument/publishDiagnostics` for
that version: wall time, and the CPU time the server process spent meanwhile
(all its threads, from /proc: what the change cost it whatever the load).
Prints medians, the spread and the machine's load average; then the CPU time
the same lints take in this process (`time.process_time`) and the server's
debounce.

    python benchmarks/bench_server.py [--lines 2000 10000] [--changes 25] [--project-files 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pytest_lsp import client_capabilities, make_test_lsp_client

BLOCK = '''
def train_{i}(model, loader, optimizer, device):
    """Epoch {i}: a plain training loop."""
    model.train()
    losses = []
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        out = model(x)
        loss = torch.nn.functional.cross_entropy(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append({kept})
        if step % 100 == 0:
            print(f"step {{step}}: {{loss.item():.4f}}")
    return losses

'''


def module(lines: int, leaky: set[int]) -> str:
    """A module of about `lines` lines: training loops, those in `leaky` keeping `loss` itself."""
    count = max(1, (lines - 2) // BLOCK.count("\n"))
    body = [BLOCK.format(i=i, kept="loss" if i in leaky else "loss.item()") for i in range(count)]
    return "import torch\n\n" + "".join(body)


def server_cpu(pid: int) -> float:
    """CPU seconds the process has run, all its threads (schedstat: nanoseconds)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError):
            continue  # a thread that ended meanwhile
    return total / 1e9


async def measure(lines: int, changes: int, others: int) -> tuple[tuple[float, float], list[tuple[float, float]]]:
    """(wall, server CPU) seconds from didOpen to the first diagnostics, and from each didChange
    to its diagnostics."""
    client = make_test_lsp_client()
    published: dict[int, asyncio.Future] = {}

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        return None

    original = client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        original(params)
        future = published.get(params.version)
        if future is not None and not future.done():
            future.set_result(len(params.diagnostics))

    client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_diagnostics
    await client.start_io(sys.executable, "-m", "memlint", "server")
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        (root / "pyproject.toml").write_text("[tool.memlint]\n")
        for index in range(others):  # what the first project scan reads
            (root / f"other_{index}.py").write_text(module(2000, {index % 7}))
        path = root / "train.py"
        text = module(lines, {0})
        path.write_text(text)
        await client.initialize_session(
            types.InitializeParams(
                capabilities=client_capabilities("visual-studio-code"),
                workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="bench")],
            )
        )
        uri = path.as_uri()
        loop = asyncio.get_running_loop()
        pid = client._server.pid
        published[1] = loop.create_future()
        start, cpu = time.perf_counter(), server_cpu(pid)
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text))
        )
        await asyncio.wait_for(published[1], 120)
        opened = time.perf_counter() - start, server_cpu(pid) - cpu
        timings = []
        blocks = max(1, (lines - 2) // BLOCK.count("\n"))
        for version in range(2, changes + 2):
            leaky = {0, version % blocks}  # a different loop leaks each time
            new = module(lines, leaky)
            published[version] = loop.create_future()
            start, cpu = time.perf_counter(), server_cpu(pid)
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=new)],
                )
            )
            found = await asyncio.wait_for(published[version], 120)
            timings.append((time.perf_counter() - start, server_cpu(pid) - cpu))
            assert found == len(leaky), (found, leaky)
        await client.shutdown_session()
    return opened, timings


def cpu_per_change(lines: int, changes: int) -> list[float]:
    """CPU seconds of the server's lint of each change, in this process, with its incremental parser."""
    from memlint.config import load_settings
    from memlint.server.app import lint_own_parts
    from memlint.server.incremental import IncrementalParser

    settings = load_settings(isolated=True)
    parser = IncrementalParser()
    blocks = max(1, (lines - 2) // BLOCK.count("\n"))
    lint_own_parts(parser, "train.py", module(lines, {0}), settings, {})  # a module calling no project function
    timings = []
    for version in range(2, changes + 2):
        text = module(lines, {0, version % blocks})
        start = time.process_time()
        lint_own_parts(parser, "train.py", text, settings, {})
        timings.append(time.process_time() - start)
    return timings


def scan_cpu(others: int) -> float:
    """CPU seconds of the first project scan (what the background process does), in this process."""
    from memlint.config import load_settings
    from memlint.server.documents import scan_summaries

    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        (root / "pyproject.toml").write_text("[tool.memlint]\n")
        for index in range(others):
            (root / f"other_{index}.py").write_text(module(2000, {index % 7}))
        settings = load_settings(config_file=root / "pyproject.toml", start=root)
        start = time.process_time()
        scan_summaries(settings)
        return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[2000, 10000])
    parser.add_argument("--changes", type=int, default=25)
    parser.add_argument("--project-files", type=int, default=20, help="2,000-line modules beside the open file")
    args = parser.parse_args()
    from memlint.server.app import DEBOUNCE_S

    print(f"cpus: {os.cpu_count()}; the first project scan: {args.project_files} files, "
          f"{scan_cpu(args.project_files):.2f} s CPU (in the server's background process)\n")
    for lines in args.lines:
        before = os.getloadavg()
        (opened, opened_cpu), timings = asyncio.run(measure(lines, args.changes, args.project_files))
        after = os.getloadavg()
        wall = sorted(t * 1000 for t, _ in timings)
        cpu = sorted(c * 1000 for _, c in timings)
        early = sorted(t * 1000 for t, _ in timings[:5])
        print(f"file: {lines} lines; didOpen to its diagnostics: wall {opened * 1000:.0f} ms, server CPU {opened_cpu * 1000:.0f} ms")
        print(f"{len(wall)} changes, each timed from didChange to its publishDiagnostics:")
        print(f"  wall: median {statistics.median(wall):.0f} ms, min {wall[0]:.0f} ms, max {wall[-1]:.0f} ms "
              f"(the first 5, during the project scan: median {statistics.median(early):.0f} ms)")
        print(f"  server CPU: median {statistics.median(cpu):.0f} ms, min {cpu[0]:.0f} ms, max {cpu[-1]:.0f} ms")
        print(f"  load average (1 min) before {before[0]:.2f}, after {after[0]:.2f}")
        lint = sorted(t * 1000 for t in cpu_per_change(lines, args.changes))
        print(
            f"  CPU of the change's lint in this process: median {statistics.median(lint):.0f} ms, min {lint[0]:.0f} ms "
            f"(+ {DEBOUNCE_S * 1000:.0f} ms debounce)\n"
        )


if __name__ == "__main__":
    main()
