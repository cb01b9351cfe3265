"""Language server latency: from a change to a 2,000- or 10,000-line file to its diagnostics.

Starts `memlint server` over stdio with a real LSP client (pygls, as the tests
use), opens a generated training module of each size in `--lines` (timing
didOpen to its first diagnostics), then makes `--changes`
edits one at a time (each toggles whether one loop keeps its loss with its
graph, so the diagnostics really change) and times each from sending
`textDocument/didChange` to receiving `textDocument/publishDiagnostics` for
that version. Prints the median, the spread and the machine's load average;
then the CPU time the same lints take in this process (`time.process_time`:
what a change costs with a core to itself, whatever the load) and the
server's debounce, which together are the latency on an idle machine.

    python benchmarks/bench_server.py [--lines 2000 10000] [--changes 25]
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


async def measure(lines: int, changes: int) -> tuple[float, list[float]]:
    """Seconds from didOpen to the first diagnostics, and from each didChange to its diagnostics."""
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
        published[1] = loop.create_future()
        start = time.perf_counter()
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text))
        )
        await asyncio.wait_for(published[1], 120)
        opened = time.perf_counter() - start
        await asyncio.sleep(1.0)  # let the project scan that follows the first open finish
        timings = []
        blocks = max(1, (lines - 2) // BLOCK.count("\n"))
        for version in range(2, changes + 2):
            leaky = {0, version % blocks}  # a different loop leaks each time
            new = module(lines, leaky)
            published[version] = loop.create_future()
            start = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=new)],
                )
            )
            found = await asyncio.wait_for(published[version], 120)
            timings.append(time.perf_counter() - start)
            assert found == len(leaky), (found, leaky)
        await client.shutdown_session()
    return opened, timings


def cpu_per_change(lines: int, changes: int) -> list[float]:
    """CPU seconds of the server's lint of each change, in this process, with its incremental parser."""
    from memlint.config import load_settings
    from memlint.engine import lint_text
    from memlint.server.incremental import IncrementalParser

    settings = load_settings(isolated=True)
    parser = IncrementalParser()
    blocks = max(1, (lines - 2) // BLOCK.count("\n"))
    lint_text("train.py", module(lines, {0}), settings, parser=parser)
    timings = []
    for version in range(2, changes + 2):
        text = module(lines, {0, version % blocks})
        start = time.process_time()
        lint_text("train.py", text, settings, parser=parser)
        timings.append(time.process_time() - start)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[2000, 10000])
    parser.add_argument("--changes", type=int, default=25)
    args = parser.parse_args()
    from memlint.server.app import DEBOUNCE_S

    for lines in args.lines:
        before = os.getloadavg()
        opened, timings = asyncio.run(measure(lines, args.changes))
        after = os.getloadavg()
        ms = sorted(t * 1000 for t in timings)
        print(f"file: {lines} lines; didOpen to its diagnostics {opened * 1000:.0f} ms")
        print(f"{len(ms)} changes, each timed from didChange to its publishDiagnostics:")
        print(f"median {statistics.median(ms):.0f} ms, min {ms[0]:.0f} ms, max {ms[-1]:.0f} ms")
        print(f"cpus: {os.cpu_count()}; load average (1 min) before {before[0]:.2f}, after {after[0]:.2f}")
        cpu = sorted(t * 1000 for t in cpu_per_change(lines, args.changes))
        print(
            f"CPU time of the lint per change: median {statistics.median(cpu):.0f} ms, min {cpu[0]:.0f} ms "
            f"(+ {DEBOUNCE_S * 1000:.0f} ms debounce)\n"
        )


if __name__ == "__main__":
    main()
