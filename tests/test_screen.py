"""memlint/screen.py: a file whose rules' needles are only in comments and docstrings is not
parsed with LibCST, and no finding or fix changes because of it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from samples import FP_REPROS

from memlint import engine, screen
from memlint.analysis.project import SUMMARY_NEEDLES
from memlint.engine import lint_path, lint_source
from memlint.rules import ALL_RULES
from memlint.rules.catalog import FILE_CODES

ROOT = Path(__file__).resolve().parent.parent
CODES = [r.code for r in ALL_RULES] + sorted(FILE_CODES)
FILES = sorted(
    [*(ROOT / "test_cases").rglob("*.py"), *(ROOT / "test_cases").rglob("*.ipynb"), *FP_REPROS.glob("*.py")]
)


def _screened(text: str) -> bool:
    """Does the screen spare `text` LibCST's parse?"""
    rules = [r for r in ALL_RULES if r.may_apply(text)]
    return not screen.needs_tree(text, rules, SUMMARY_NEEDLES)


def _lint_all(monkeypatch: pytest.MonkeyPatch, enabled: bool) -> dict[str, tuple]:
    monkeypatch.setattr(screen, "ENABLED", enabled)
    found = {}
    for path in FILES:
        result = lint_path(str(path), CODES)
        found[str(path)] = (result.findings, [e.message for e in result.errors])
    return found


def test_findings_and_fixes_are_those_without_the_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file of test_cases/ and of the false-positive repros: the same findings, messages
    and fix edits with the screen as with LibCST on every file."""
    assert len(FILES) > 600
    with_screen = _lint_all(monkeypatch, True)
    without = _lint_all(monkeypatch, False)
    assert with_screen == without


def test_the_comparison_covers_what_ast_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above means something: `ast` decides dozens of the files (no loop statement
    opens a line), among them bad cases whose findings it must not lose, and it spares the
    good cases whose needles are only in comments and docstrings."""
    monkeypatch.setattr(screen, "ENABLED", True)
    texts = {p: engine.read_source(str(p)).text for p in FILES if p.suffix == ".py"}
    decided = [p for p, text in texts.items() if not screen._LOOP_STATEMENT.search(text)]
    assert len([p for p in decided if p.name.startswith("bad_")]) >= 40
    spared = {p.name for p, text in texts.items() if _screened(text)}
    assert {"good_empty_cache_named_in_docstrings_only.py", "good_load_named_in_comments_only.py"} <= spared


@pytest.mark.parametrize(
    "source",
    [
        # needles of ML001/ML004 and the summary's, but only in a docstring and comments
        '''
        """Runs the model for one epoch; see torch.cuda.empty_cache and loss.backward()."""
        # for x in loader: cache.append(model(x))  -- an example, not code
        def describe(name):
            """The name for a step, as printed while the trainer runs."""
            return name.upper()
        ''',
        # a class docstring and a comment (ML014's `zero_grad`, the summary's `precision` and `cuda`)
        '''
        class Options:
            """The run's precision ('bf16' or '32') and device ('cuda' or 'cpu')."""

            # zero_grad(set_to_none=True) is left to the trainer
            size = 3
        ''',
    ],
)
def test_needles_in_comments_and_docstrings_spare_the_parse(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = textwrap.dedent(source)
    monkeypatch.setattr(screen, "ENABLED", True)
    assert any(r.may_apply(text) for r in ALL_RULES) or any(n in text for n in SUMMARY_NEEDLES)
    assert _screened(text)

    def no_parse(_: str) -> None:
        raise AssertionError("parsed with LibCST")

    monkeypatch.setattr(engine, "parse_module", no_parse)
    assert lint_source(text, "x.py", CODES) == ([], [])


@pytest.mark.parametrize(
    "line",
    [
        "torch.cuda.empty_cache()",  # an attribute chain (the summary's `cuda`, ML004)
        "from torch.utils import checkpoint",  # an import that ML013's needle spells as text
        "import torch.utils.checkpoint as cp",
        "x = [f(b) for b in batches]",  # a comprehension is the `for ` of ML001's needles
        "totals += train_step_loss",  # `+=` and `_step`
        "outs[k] = self.forward(x)",  # `] =`, a store into a subscript, and `forward`
        "model.eval()",  # `eval()`
        "net.train(False)",
        "y = Fn.apply(x)",  # the summary's `.apply(`
        "os.environ['PYTORCH_CUDA_ALLOC_CONF'] = 'expandable_segments:True'",  # a string
        "handle = torch.load(path)",
        "def training_step(self, batch): return 1",  # a function's name
        "def f(ctx): return ctx",  # a parameter's name
        "trainer = make(precision='bf16')",  # a keyword's name
        "@torch.no_grad()\ndef evaluate(m): return m",  # a decorator
        "msg = f'CUDA out of memory at {step}'",  # an f-string's text
    ],
)
def test_needles_in_code_need_the_tree(line: str) -> None:
    text = f"import os\n\n{line}\n"
    assert any(r.may_apply(text) for r in ALL_RULES) or any(n in text for n in SUMMARY_NEEDLES)
    assert not _screened(text)


def test_a_syntax_error_is_reported_as_without_the_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """`ast` refuses the file: LibCST parses it and its error is the finding, as before."""
    text = "# the model's forward pass\ndef f(:\n    pass\n"
    findings = {}
    for enabled in (True, False):
        monkeypatch.setattr(screen, "ENABLED", enabled)
        findings[enabled] = lint_source(text, "x.py", CODES)
    assert findings[True] == findings[False]
    assert [f.code for f in findings[True][0]] == ["ML000"]
