"""`memlint server` driven as an editor drives it: a pytest-lsp client over stdio.

The server runs with a fake `torch` first on its path that ends the process
when imported, so every test here also checks that the server never imports torch.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Callable

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from samples import EMA, LEAKY_OPS, LEAKY_OPS_FIXED, POLICY_TRAIN, REWARDS

from memlint.config import load_settings
from memlint.engine import lint_source
from memlint.rules import documentation

FAKE_TORCH = Path(__file__).parent / "fake_torch"
SERVER_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(FAKE_TORCH), os.environ.get("PYTHONPATH", "")])}
WAIT_S = 60  # generous: the test machine is shared

LEAKY = """\
import torch


def train(model, loader, optimizer):
    losses = []
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss)
    return losses
"""
FLAGGED = "losses.append(loss)"

OPS_PLAIN = """\
def fused_matmul(x, w):
    return x @ w
"""
TRAIN_WITH_OPS = """\
import torch
from pkg.ops import fused_matmul


def train(w, loader, opt):
    losses = []
    for x in loader:
        loss = fused_matmul(x, w).sum()
        loss.backward()
        opt.step()
        losses.append(loss)
    return losses
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "memlint", "server"], server_env=SERVER_ENV))
async def client(lsp_client: LanguageClient, tmp_path: Path):
    lsp_client.registrations = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        lsp_client.registrations.extend(params.registrations)

    (tmp_path / "pyproject.toml").write_text("[tool.memlint]\nextend-exclude = [\"generated\"]\n")
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="project")],
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return tmp_path


# ---------------------------------------------------------------------- helpers


async def diagnostics_until(
    client: LanguageClient, uri: str, predicate: Callable[[list[types.Diagnostic]], bool]
) -> list[types.Diagnostic]:
    """The document's diagnostics once they satisfy `predicate` (waiting for publications)."""

    async def wait() -> list[types.Diagnostic]:
        while uri not in client.diagnostics or not predicate(list(client.diagnostics[uri])):
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return list(client.diagnostics[uri])

    return await asyncio.wait_for(wait(), WAIT_S)


def codes(diagnostics: list[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


def write(project: Path, relative: str, text: str) -> str:
    path = project / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path.as_uri()


def open_document(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=version, text=text))
    )


def change_document(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def apply_edits(text: str, edit: types.WorkspaceEdit, uri: str) -> str:
    """What the editor does with a WorkspaceEdit (edits of one document, applied from the end)."""
    [change] = edit.document_changes
    assert change.text_document.uri == uri
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def offset(position: types.Position) -> int:
        return offsets[position.line] + position.character

    for item in sorted(change.edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(item.range.start)] + item.new_text + text[offset(item.range.end) :]
    return text


def range_of(text: str, needle: str) -> types.Range:
    [line] = [i for i, line in enumerate(text.splitlines()) if needle in line]
    column = text.splitlines()[line].index(needle)
    return types.Range(types.Position(line, column), types.Position(line, column + len(needle)))


async def code_actions(
    client: LanguageClient, uri: str, where: types.Range, diagnostics: list[types.Diagnostic], only=None
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=where,
            context=types.CodeActionContext(diagnostics=diagnostics, only=only),
        )
    )
    return list(result or [])


# ---------------------------------------------------------------------- tests


def test_the_fake_torch_ends_a_process_that_imports_it() -> None:
    """What makes every server test a check that torch is never imported."""
    run = subprocess.run([sys.executable, "-c", "import torch"], env=SERVER_ENV, capture_output=True, text=True)
    assert run.returncode == 86 and "imported torch" in run.stderr


@pytest.mark.asyncio
async def test_leaky_file_quick_fix_clears_the_diagnostic(client: LanguageClient, project: Path) -> None:
    uri = write(project, "train.py", LEAKY)
    open_document(client, uri, LEAKY)
    [found] = await diagnostics_until(client, uri, lambda d: len(d) > 0)
    assert found.code == "ML001" and found.source == "memlint"
    assert found.severity == types.DiagnosticSeverity.Warning
    assert found.range == range_of(LEAKY, FLAGGED)
    assert found.code_description.href == "https://memlint.github.io/memlint/rules/retained-graph/"  # its docs page
    [watch] = client.registrations  # the server asked to hear of files changed outside the editor
    assert watch.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    assert "kept beyond its iteration" in found.message

    actions = await code_actions(client, uri, found.range, [found])
    titles = [a.title for a in actions]
    assert "Detach the stored value (safe)" in titles and "Ignore ML001 for this line" in titles
    [fix] = [a for a in actions if a.title == "Detach the stored value (safe)"]
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    fixed = apply_edits(LEAKY, fix.edit, uri)
    assert "losses.append(loss.detach())" in fixed

    change_document(client, uri, fixed, 2)
    assert await diagnostics_until(client, uri, lambda d: d == []) == []

    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=uri)))
    assert await diagnostics_until(client, uri, lambda d: d == []) == []


@pytest.mark.asyncio
async def test_hover_shows_the_rule_documentation(client: LanguageClient, project: Path) -> None:
    uri = write(project, "train.py", LEAKY)
    open_document(client, uri, LEAKY)
    [found] = await diagnostics_until(client, uri, lambda d: len(d) > 0)
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), position=found.range.start)
    )
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert hover.contents.value == documentation("ML001")
    elsewhere = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 0))
    )
    assert elsewhere is None


@pytest.mark.asyncio
async def test_ignore_action_merges_into_an_existing_noqa_list(client: LanguageClient, project: Path) -> None:
    text = LEAKY.replace(FLAGGED, f"{FLAGGED}  # noqa: E501")
    uri = write(project, "train.py", text)
    open_document(client, uri, text)
    [found] = await diagnostics_until(client, uri, lambda d: len(d) > 0)
    actions = await code_actions(client, uri, found.range, [found])
    [ignore] = [a for a in actions if a.title == "Ignore ML001 for this line"]
    ignored = apply_edits(text, ignore.edit, uri)
    assert f"{FLAGGED}  # noqa: E501, ML001\n" in ignored
    assert ignored.replace("  # noqa: E501, ML001", "") == LEAKY
    change_document(client, uri, ignored, 2)
    assert await diagnostics_until(client, uri, lambda d: d == []) == []


@pytest.mark.asyncio
async def test_fix_all_applies_only_safe_fixes(client: LanguageClient, project: Path) -> None:
    text = LEAKY + textwrap.dedent(
        """
        def resume(model, path):
            checkpoint = torch.load(path)
            model.load_state_dict(checkpoint["model"])
        """
    )
    uri = write(project, "train.py", text)
    open_document(client, uri, text)
    found = await diagnostics_until(client, uri, lambda d: len(d) == 2)
    assert codes(found) == ["ML001", "ML011"]
    actions = await code_actions(
        client, uri, types.Range(types.Position(0, 0), types.Position(0, 0)), [], only=["source.fixAll"]
    )
    [fix_all] = actions
    assert (fix_all.title, fix_all.kind) == ("Fix all safe memlint findings", "source.fixAll.memlint")
    fixed = apply_edits(text, fix_all.edit, uri)
    assert fixed == text.replace(FLAGGED, "losses.append(loss.detach())")  # ML011's fix is unsafe: not applied
    change_document(client, uri, fixed, 2)
    assert codes(await diagnostics_until(client, uri, lambda d: len(d) == 1)) == ["ML011"]


@pytest.mark.asyncio
async def test_latest_text_wins(client: LanguageClient, project: Path) -> None:
    uri = write(project, "train.py", LEAKY)
    open_document(client, uri, LEAKY)
    await diagnostics_until(client, uri, lambda d: len(d) == 1)
    for version in range(2, 12):  # typing: every version but the last one still leaks
        text = LEAKY if version < 11 else LEAKY.replace(FLAGGED, "losses.append(loss.item())")
        change_document(client, uri, text, version)
    await diagnostics_until(client, uri, lambda d: d == [])
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), position=range_of(LEAKY, "loss)").start)
    )
    assert hover is None  # the findings kept are those of the last text


@pytest.mark.asyncio
async def test_a_dependency_change_updates_the_open_dependent(client: LanguageClient, project: Path) -> None:
    write(project, "pkg/__init__.py", "")
    ops = project / "pkg" / "ops.py"
    ops.write_text(OPS_PLAIN)
    uri = write(project, "pkg/train.py", TRAIN_WITH_OPS)
    open_document(client, uri, TRAIN_WITH_OPS)
    [found] = await diagnostics_until(client, uri, lambda d: len(d) == 1)
    assert found.severity == types.DiagnosticSeverity.Warning

    ops.write_text(LEAKY_OPS)  # on disk, not open in the editor: the client's file watcher reports it
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(uri=ops.as_uri(), type=types.FileChangeType.Changed)])
    )
    [found] = await diagnostics_until(client, uri, lambda d: d and d[0].severity == types.DiagnosticSeverity.Error)
    assert "`ContextMatmul`" in found.message

    # Now edited in the editor, unsaved: the buffer counts.
    open_document(client, ops.as_uri(), LEAKY_OPS)
    change_document(client, ops.as_uri(), LEAKY_OPS_FIXED, 2)
    [found] = await diagnostics_until(client, uri, lambda d: d and d[0].severity == types.DiagnosticSeverity.Warning)
    assert "ContextMatmul" not in found.message




@pytest.mark.asyncio
async def test_the_callers_diagnostics_follow_the_callees_facts(client: LanguageClient, project: Path) -> None:
    """The caller's analysis reads what the callee's file says `get_reward` returns: its diagnostic
    comes and goes as only the callee changes, on disk and in an unsaved buffer."""
    write(project, "pkg/__init__.py", "")
    rewards = project / "pkg" / "rewards.py"
    rewards.write_text(REWARDS.format(suffix=""))
    uri = write(project, "pkg/train.py", POLICY_TRAIN)
    open_document(client, uri, POLICY_TRAIN)
    [found] = await diagnostics_until(client, uri, lambda d: len(d) == 1)
    assert found.code == "ML001" and found.range.start.line == 9

    rewards.write_text(REWARDS.format(suffix=".detach().cpu()"))
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(uri=rewards.as_uri(), type=types.FileChangeType.Changed)])
    )
    await diagnostics_until(client, uri, lambda d: d == [])

    open_document(client, rewards.as_uri(), REWARDS.format(suffix=".detach().cpu()"))
    change_document(client, rewards.as_uri(), REWARDS.format(suffix=""), 2)
    [found] = await diagnostics_until(client, uri, lambda d: len(d) == 1)
    assert found.code == "ML001"


EMA_TRAIN = """\
from pkg.ema import EMA


def train(model, loader, optimizer):
    ema = EMA(model)
    for x in loader:
        model(x).mean().backward()
        optimizer.step()
        ema.update(model)
    return ema
"""


@pytest.mark.asyncio
async def test_the_callees_diagnostics_follow_how_callers_call_it(client: LanguageClient, project: Path) -> None:
    """`EMA.update` runs every step because train.py's loop calls it: its diagnostic comes and goes
    as only the caller's file changes on disk."""
    write(project, "pkg/__init__.py", "")
    train = project / "pkg" / "train.py"
    train.write_text(EMA_TRAIN)
    uri = write(project, "pkg/ema.py", EMA)
    open_document(client, uri, EMA)
    [found] = await diagnostics_until(client, uri, lambda d: len(d) == 1)
    assert found.code == "ML001" and found.range.start.line == 7

    train.write_text(EMA_TRAIN.replace("        ema.update(model)\n", ""))
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(uri=train.as_uri(), type=types.FileChangeType.Changed)])
    )
    await diagnostics_until(client, uri, lambda d: d == [])


@pytest.mark.asyncio
async def test_a_syntax_error_is_one_diagnostic_and_the_server_lives_on(client: LanguageClient, project: Path) -> None:
    broken = LEAKY.replace("for x, y in loader:", "for x, y in loader")
    uri = write(project, "train.py", broken)
    open_document(client, uri, broken)
    [found] = await diagnostics_until(client, uri, lambda d: len(d) > 0)
    assert found.code == "ML000" and found.severity == types.DiagnosticSeverity.Error
    every_rule = load_settings(start=project).codes
    [expected] = lint_source(broken, str(project / "train.py"), every_rule)[0]  # where `memlint` puts it
    assert found.range.start == types.Position(expected.location.row - 1, expected.location.column - 1)
    assert await code_actions(client, uri, found.range, [found]) == []  # `# noqa` does not silence a syntax error

    change_document(client, uri, LEAKY, 2)
    assert codes(await diagnostics_until(client, uri, lambda d: codes(d) == ["ML001"])) == ["ML001"]


@pytest.mark.asyncio
async def test_an_undecodable_dependency_does_not_stop_the_server(client: LanguageClient, project: Path) -> None:
    (project / "latin.py").write_bytes(b"name = '\xe9'\n")  # not UTF-8, no coding cookie
    uri = write(project, "train.py", LEAKY)
    open_document(client, uri, LEAKY)
    assert codes(await diagnostics_until(client, uri, lambda d: len(d) > 0)) == ["ML001"]
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            [types.FileEvent(uri=(project / "latin.py").as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    change_document(client, uri, LEAKY.replace(FLAGGED, "losses.append(loss.item())"), 2)
    assert await diagnostics_until(client, uri, lambda d: d == []) == []


@pytest.mark.asyncio
async def test_configuration_changes_are_picked_up(client: LanguageClient, project: Path) -> None:
    uri = write(project, "train.py", LEAKY)
    excluded = write(project, "generated/train.py", LEAKY)
    open_document(client, excluded, LEAKY)
    open_document(client, uri, LEAKY)
    assert codes(await diagnostics_until(client, uri, lambda d: len(d) > 0)) == ["ML001"]
    assert await diagnostics_until(client, excluded, lambda d: True) == []

    config = project / "pyproject.toml"
    watched = types.DidChangeWatchedFilesParams([types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)])
    config.write_text('[tool.memlint]\nignore = ["ML001"]\n')
    client.workspace_did_change_watched_files(watched)
    assert await diagnostics_until(client, uri, lambda d: d == []) == []

    config.write_text("[tool.memlint]\nselect = [\n")  # broken: one diagnostic says so
    client.workspace_did_change_watched_files(watched)
    [broken] = await diagnostics_until(client, uri, lambda d: len(d) > 0)
    assert "configuration error" in broken.message and "invalid TOML" in broken.message

    config.write_text("[tool.memlint]\n")
    client.workspace_did_change_watched_files(watched)
    assert codes(await diagnostics_until(client, uri, lambda d: codes(d) == ["ML001"])) == ["ML001"]


def test_server_without_pygls_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from memlint.cli import main

    monkeypatch.setitem(sys.modules, "pygls", None)
    for name in [m for m in sys.modules if m.startswith("memlint.server")]:
        monkeypatch.delitem(sys.modules, name)
    result = CliRunner().invoke(main, ["server"])
    assert result.exit_code == 2
    assert result.stderr.strip() == 'memlint: error: the language server needs pygls: pip install "memlint-torch[server]"'


NOTEBOOK_CELLS = [
    (types.NotebookCellKind.Code, "import torch\nlosses = []\n"),
    (types.NotebookCellKind.Markup, "# Training\nThe loop keeps every loss."),
    (
        types.NotebookCellKind.Code,
        "%time warmup = 1\nfor batch in loader:\n    loss = model(batch).sum()\n    optimizer.zero_grad()\n"
        "    loss.backward()\n    optimizer.step()\n    losses.append(loss)\n",
    ),
]


@pytest.mark.asyncio
async def test_notebook_cells_get_their_own_diagnostics_and_fixes(client: LanguageClient, project: Path) -> None:
    """A loss appended in one cell to a list made in another: the finding, its quick fix and its
    hover are on the cell that holds it, in that cell's lines; a magic line neither breaks nor shifts it."""
    notebook = project / "train.ipynb"
    uris = [f"vscode-notebook-cell:{notebook}#cell{n}" for n in range(len(NOTEBOOK_CELLS))]
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=notebook.as_uri(),
                notebook_type="jupyter-notebook",
                version=1,
                cells=[types.NotebookCell(kind=kind, document=uri) for (kind, _), uri in zip(NOTEBOOK_CELLS, uris)],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri=uri, language_id="python" if kind == types.NotebookCellKind.Code else "markdown", version=1, text=text)
                for (kind, text), uri in zip(NOTEBOOK_CELLS, uris)
            ],
        )
    )
    loop_cell = NOTEBOOK_CELLS[2][1]
    [found] = await diagnostics_until(client, uris[2], lambda d: len(d) > 0)
    assert found.code == "ML001" and found.range == range_of(loop_cell, FLAGGED)
    assert await diagnostics_until(client, uris[0], lambda d: True) == []

    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uris[2]), position=found.range.start)
    )
    assert hover.contents.value == documentation("ML001")

    actions = await code_actions(client, uris[2], found.range, [found])
    [fix] = [a for a in actions if a.title == "Detach the stored value (safe)"]
    fixed = apply_edits(loop_cell, fix.edit, uris[2])
    assert fixed == loop_cell.replace(FLAGGED, "losses.append(loss.detach())")
    [edited] = fix.edit.document_changes
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=notebook.as_uri(), version=2),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(uri=uris[2], version=2),
                            changes=[types.TextDocumentContentChangePartial(range=e.range, text=e.new_text) for e in edited.edits],
                        )
                    ]
                )
            ),
        )
    )
    assert await diagnostics_until(client, uris[2], lambda d: d == []) == []


def test_a_cell_fix_that_reindents_an_ipython_line_keeps_the_magic() -> None:
    """ML003's fix re-indents the loop; in the program the `%time` line is a placeholder,
    so the cell's edit must come back through the notebook, magic restored."""
    from memlint.engine import lint_text
    from memlint.server.notebooks import Cells, join_cells

    setup = "import torch\nmodel = torch.nn.Linear(2, 2)\nloader = [torch.randn(2)]\n"
    cell = "model.eval()\nouts = []\nfor x in loader:\n    %time print(1)\n    y = model(x)\n    outs.append(y.cpu())\n"
    cells = Cells(join_cells([setup, cell]), ["cell1", "cell2"])
    (finding,) = [f for f in lint_text("nb.ipynb", cells.joined.text, load_settings(isolated=True)).findings if f.code == "ML003"]
    index, moved = cells.to_cell(finding)
    (edit,) = moved.fix.edits
    assert index == 1 and (edit.start.row, edit.start.column) == (1, 1) and edit.end.row == cell.count("\n") + 1
    assert edit.content == (
        "model.eval()\nouts = []\nwith torch.no_grad():\n    for x in loader:\n"
        "        %time print(1)\n        y = model(x)\n        outs.append(y.cpu())\n"
    )
