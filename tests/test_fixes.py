"""Autofix: each rule's fix, overlaps, rounds, refusals, encodings, writes and the CLI flags.

`python tests/test_fixes.py --regenerate` rewrites the expected outputs
`test_cases/**/bad_*.fixed.py` (read the diff before committing them).
"""

from __future__ import annotations

import json
import os
import stat
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from samples import LEAKY_TRAIN

from memlint import engine, fixes
from memlint.cli import main
from memlint.fixes import apply_fixes, fix_path, fix_source, is_applicable
from memlint.models import Applicability, Edit, Fix, Position
from memlint.rules import ALL_RULES

CODES = [r.code for r in ALL_RULES] + ["ML000"]
CASES = Path(__file__).resolve().parent.parent / "test_cases"


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def lint(text: str, path: str = "t.py"):
    findings, errors = engine.lint_source(text, path, CODES)
    assert not errors, errors
    return findings


def codes_of(findings) -> list[str]:
    return sorted(f.code for f in findings)


def run_cli(*args: str, input: str | None = None):
    result = CliRunner().invoke(main, ["--no-cache", *args], input=input, catch_exceptions=False)
    return result


TRAIN = LEAKY_TRAIN.replace("losses.append(loss)", "losses.append(loss)  # keep for the plot")
TRAIN_FIXED = TRAIN.replace("losses.append(loss)", "losses.append(loss.detach())")

EVAL_FUNCTION = src(
    '''
    """Evaluation helpers."""
    from __future__ import annotations

    from torch import nn


    def evaluate(model, loader):
        model.eval()
        for x, y in loader:
            out = model(x)
            print(out.sum().item())
    '''
)

EVAL_LOOP = src(
    """
    import torch


    def run_epoch(model, val_loader):
        model.eval()
        preds = []
        # every batch
        for x, y in val_loader:  # the loop
            out = torch.sigmoid(model(x))
            preds.append(out)
        return preds
    """
)

CARRIED = src(
    """
    import torch


    def train(loader, criterion, opt):
        model = torch.nn.GRUCell(8, 8)
        hidden = torch.zeros(4, 8)
        for x, y in loader:
            hidden = model(x, hidden)
            loss = criterion(hidden, y)
            loss.backward(retain_graph=True)
            opt.step()
    """
)

AUTOCAST = src(
    """
    import torch


    def decode(model, tokens, steps):
        with torch.autocast("cuda", dtype=torch.bfloat16, cache_enabled=False):
            for _ in range(steps):
                tokens = model(tokens)
        return tokens
    """
)

EVAL_OUTPUTS = src(
    """
    import torch


    @torch.no_grad()
    def predict(model, loader):
        outputs = []
        for x in loader:
            outputs.append(model(x.cuda()))
        return torch.cat(outputs)
    """
)

EMPTY_CACHE = src(
    """
    import torch


    def train(model, loader, opt):
        for x, y in loader:
            loss = model(x).sum()
            loss.backward()
            opt.step()
            torch.cuda.empty_cache()
    """
)

CTX = src(
    """
    import torch


    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mask = x > 0
            return x.clamp(min=0)

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.mask
    """
)


# --------------------------------------------------------------------------- each rule's fix


def test_ml001_inserts_detach_safely() -> None:
    findings = lint(TRAIN)
    assert codes_of(findings) == ["ML001"]
    assert findings[0].fix.applicability is Applicability.SAFE
    result = fix_source(TRAIN, "t.py", CODES)
    assert result.text == TRAIN_FIXED  # the comment stays, nothing else changes
    assert [f.code for f in result.applied] == ["ML001"] and not result.findings and not result.rejected


def test_ml001_keeps_the_parentheses_and_their_comment_once() -> None:
    text = src(
        """
        def train(model, loader, opt):
            total = 0
            for x, y in loader:
                loss = model(x).sum()
                loss.backward()
                opt.step()
                total += (
                    loss  # this step
                )
            return total
        """
    )
    result = fix_source(text, "t.py", CODES)
    assert result.text.count("# this step") == 1
    assert "total += (\n            loss  # this step\n        ).detach()" in result.text
    assert not result.findings


def test_columns_count_characters_not_bytes() -> None:
    text = TRAIN.replace("        losses.append(loss)  # keep for the plot", '        print("🔥é\\t"); losses.append(loss); print("😀")')
    result = fix_source(text, "t.py", CODES)
    assert result.text == text.replace("losses.append(loss)", "losses.append(loss.detach())")


def test_ml005_moves_outputs_to_the_cpu_only_with_unsafe_fixes() -> None:
    text = EVAL_OUTPUTS.replace("model(x.cuda())", "model(x.cuda()).softmax(-1)")  # a tensor method's result
    findings = lint(text)
    assert codes_of(findings) == ["ML005"] and findings[0].fix.applicability is Applicability.UNSAFE
    assert fix_source(text, "t.py", CODES).text == text
    result = fix_source(text, "t.py", CODES, unsafe=True)
    assert result.text == text.replace("model(x.cuda()).softmax(-1))", "model(x.cuda()).softmax(-1).detach().cpu())")
    assert not result.findings


def test_no_edit_on_a_value_not_known_to_be_a_tensor() -> None:
    """What an unknown model returns may be a tuple or an output object, a handed-in state may be
    an LSTM's `(h, c)`, `step * world_size` may be an int: `.detach()` or `.cpu()` would raise on
    them, so the finding says what to store and offers no edit, safe or unsafe."""
    (finding,) = lint(EVAL_OUTPUTS.replace("return torch.cat(outputs)", "return outputs"))
    assert finding.code == "ML005" and finding.fix.applicability is Applicability.DISPLAY_ONLY and not finding.fix.edits
    (finding,) = lint(EVAL_OUTPUTS)  # `torch.cat(outputs)` after the loop: it takes nothing but tensors
    assert finding.fix.applicability is Applicability.UNSAFE and [e.content for e in finding.fix.edits] == [
        "model(x.cuda()).detach().cpu()"
    ]
    carried = CARRIED.replace("model = torch.nn.GRUCell(8, 8)", "model = torch.nn.LSTMCell(8, 8)")  # an (h, c) tuple
    carried = carried.replace("hidden = torch.zeros(4, 8)", "hidden = None").replace(
        "hidden = model(x, hidden)", "out, hidden = model(x, hidden)"
    ).replace("criterion(hidden, y)", "criterion(out, y)")
    (finding,) = lint(carried)
    assert finding.code == "ML006" and not finding.fix.edits
    counted = src(
        """
        def train(model, loader, opt, scale):
            seen = []
            for x in loader:
                out = model(x)
                loss = out.sum()
                loss.backward()
                opt.step()
                seen.append(out * scale)
            return seen
        """
    )
    (finding,) = [f for f in lint(counted) if f.code == "ML001"]
    assert not finding.fix.edits  # a product is a tensor only where a factor is known to be one
    (finding,) = [f for f in lint(counted.replace("out * scale", "loss * scale")) if f.code == "ML001"]
    assert finding.fix.applicability is Applicability.SAFE  # `loss.backward()` shows `loss` is a tensor


def test_ml005_does_not_detach_twice() -> None:
    text = EVAL_OUTPUTS.replace("outputs.append(model(x.cuda()))", "outputs.append(model(x.cuda()).detach())")
    result = fix_source(text, "t.py", CODES, unsafe=True)
    assert ".detach().detach()" not in result.text


def test_ml006_detaches_the_carried_state() -> None:
    findings = lint(CARRIED)
    assert codes_of(findings) == ["ML006"] and findings[0].fix.applicability is Applicability.UNSAFE
    text, applied = apply_fixes(CARRIED, findings, unsafe=True)
    assert text == CARRIED.replace("model(x, hidden)", "model(x, hidden.detach())")
    assert applied == findings


def test_ml006_fix_is_applied_and_lints_clean() -> None:
    result = fix_source(CARRIED, "t.py", CODES, unsafe=True)
    assert "hidden.detach()" in result.text and not result.findings


def test_ml002_enables_the_cast_cache() -> None:
    findings = lint(AUTOCAST)
    assert codes_of(findings) == ["ML002"] and findings[0].fix.applicability is Applicability.UNSAFE
    result = fix_source(AUTOCAST, "t.py", CODES, unsafe=True)
    assert result.text == AUTOCAST.replace("cache_enabled=False", "cache_enabled=True")
    assert not result.findings


def test_ml003_decorates_the_function_and_imports_torch_after_docstring_and_future() -> None:
    findings = lint(EVAL_FUNCTION)
    assert codes_of(findings) == ["ML003"]
    result = fix_source(EVAL_FUNCTION, "t.py", CODES, unsafe=True)
    assert result.text == EVAL_FUNCTION.replace(
        "from __future__ import annotations\n", "from __future__ import annotations\nimport torch\n"
    ).replace("def evaluate", "@torch.no_grad()\ndef evaluate")
    assert not result.findings


def test_ml003_import_goes_below_shebang_and_coding_cookie() -> None:
    text = "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n# licence\n\n" + EVAL_FUNCTION.split("\n\n", 1)[1].replace(
        "from __future__ import annotations\n\n", ""
    )
    result = fix_source(text, "t.py", CODES, unsafe=True)
    assert result.text.startswith("#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n# licence\n\nimport torch\nfrom torch import nn\n")
    assert "@torch.no_grad()\ndef evaluate" in result.text


def test_ml003_on_the_first_line_puts_the_import_above_the_decorator() -> None:
    text = src(
        """
        def evaluate(model, loader):
            model.eval()
            for x, y in loader:
                out = model(x)
        """
    )
    result = fix_source(text, "t.py", CODES, unsafe=True)
    assert result.text == "import torch\n@torch.no_grad()\n" + text
    assert not result.findings


def test_ml003_uses_the_torch_alias() -> None:
    text = EVAL_FUNCTION.replace("from torch import nn", "import torch as th")
    result = fix_source(text, "t.py", CODES, unsafe=True)
    assert "@th.no_grad()\ndef evaluate" in result.text and "import torch\n" not in result.text


def test_ml003_decorator_goes_below_staticmethod() -> None:
    text = src(
        """
        import torch


        class Evaluator:
            @staticmethod
            def evaluate(model, loader):
                model.eval()
                for x, y in loader:
                    out = model(x)
        """
    )
    result = fix_source(text, "t.py", CODES, unsafe=True)
    assert "    @staticmethod\n    @torch.no_grad()\n    def evaluate" in result.text


def test_ml003_imports_torch_when_only_a_function_imports_it() -> None:
    text = src(
        """
        def load():
            import torch
            return torch.load("m.pt")


        def evaluate(model, loader):
            model.eval()
            for x, y in loader:
                out = model(x)
        """
    )
    result = fix_source(text, "t.py", CODES, unsafe=True)
    assert result.text.startswith("import torch\n")


def test_ml003_wraps_an_evaluation_loop_then_ml005_follows() -> None:
    findings = lint(EVAL_LOOP)
    assert codes_of(findings) == ["ML001", "ML003"]
    result = fix_source(EVAL_LOOP, "t.py", CODES, unsafe=True)
    # ML003's edit covers the loop, so ML001 inside it waits for the next round, where it is gone
    # (grad is off) and the outputs kept on the device are ML005, fixed in turn.
    assert result.text == src(
        """
        import torch


        def run_epoch(model, val_loader):
            model.eval()
            preds = []
            # every batch
            with torch.no_grad():
                for x, y in val_loader:  # the loop
                    out = torch.sigmoid(model(x))
                    preds.append(out.detach().cpu())
            return preds
        """
    )
    assert [f.code for f in result.applied] == ["ML003", "ML005"] and result.rounds == 2
    assert not result.findings and not result.rejected


def test_display_only_fixes_have_no_edits_and_are_never_applied() -> None:
    from memlint.rules import BY_CODE

    assert [f.code for f in lint(EMPTY_CACHE)] == ["ML004"]
    for text, code in ((EMPTY_CACHE, "ML004"), (CTX, "ML007")):
        assert BY_CODE[code].fix_applicability is Applicability.DISPLAY_ONLY
        findings = [f for f in lint(text) if f.code == code]
        assert all(f.fix and f.fix.applicability is Applicability.DISPLAY_ONLY for f in findings)
        assert all(not f.fix.edits and f.fix.message for f in findings)
        assert not any(is_applicable(f.fix, unsafe=True) for f in findings)
        assert fix_source(text, "t.py", CODES, unsafe=True).text == text


# --------------------------------------------------------------------------- apply_fixes, overlaps


def _finding(code: str, edits: list[tuple[str, tuple[int, int], tuple[int, int]]], applicability=Applicability.SAFE):
    base = lint(TRAIN)[0]
    fix = Fix(applicability, f"fix {code}", tuple(Edit(c, Position(*s), Position(*e)) for c, s, e in edits))
    return replace(base, code=code, message=f"message {code}", fix=fix)


def test_apply_fixes_takes_overlapping_fixes_in_a_fixed_order() -> None:
    text = "a = b + c\n"
    first = _finding("ML009", [("B", (1, 5), (1, 6))])
    overlapping = _finding("ML008", [("X", (1, 5), (1, 10))])
    later = _finding("ML001", [("C", (1, 9), (1, 10))])
    # The same set in any order: by position, then code; `overlapping` starts at b too but ends later.
    for order in ([first, overlapping, later], [later, overlapping, first], [overlapping, later, first]):
        new, applied = apply_fixes(text, order)
        assert new == "a = B + C\n"
        assert [f.code for f in applied] == ["ML009", "ML001"]


def test_apply_fixes_shares_identical_edits_and_keeps_insertion_order_within_a_fix() -> None:
    text = "x = 1\ny = 2\n"
    one = _finding("ML003", [("import torch\n", (1, 1), (1, 1)), ("@a\n", (2, 1), (2, 1))])
    two = _finding("ML003", [("import torch\n", (1, 1), (1, 1)), ("Y", (2, 1), (2, 2))])
    new, applied = apply_fixes(text, [two, one], unsafe=True)
    assert new == "import torch\nx = 1\n@a\nY = 2\n"
    assert len(applied) == 2


def test_apply_fixes_respects_applicability() -> None:
    text = "a = b\n"
    unsafe = _finding("ML002", [("B", (1, 5), (1, 6))], Applicability.UNSAFE)
    display = replace(unsafe, fix=Fix(Applicability.DISPLAY_ONLY, "do it by hand"))
    assert apply_fixes(text, [unsafe, display]) == (text, [])
    assert apply_fixes(text, [unsafe, display], unsafe=True) == ("a = B\n", [unsafe])


def test_apply_fixes_skips_edits_outside_the_text() -> None:
    bad = _finding("ML001", [("x", (5, 1), (5, 2))])
    assert apply_fixes("a = 1\n", [bad]) == ("a = 1\n", [])


# --------------------------------------------------------------------------- refusals


def _inject(monkeypatch, make_fix, code: str = "ML001") -> None:
    """Make `code`'s fix what `make_fix(finding)` returns (a rule with a broken fix)."""
    real = engine._lint_text

    def lint_text(text, path, codes, parser=None, project=None):
        findings, errors, summary = real(text, path, codes, parser, project)
        return [replace(f, fix=make_fix(f)) if f.code == code else f for f in findings], errors, summary

    monkeypatch.setattr(engine, "_lint_text", lint_text)


def test_a_fix_that_breaks_the_syntax_is_refused_and_never_written(monkeypatch, tmp_path) -> None:
    def broken(finding):
        edit = finding.fix.edits[0]
        return Fix(Applicability.SAFE, "broken", (Edit("loss.detach(", edit.start, edit.end),))

    _inject(monkeypatch, broken)
    result = fix_source(TRAIN, "t.py", CODES)
    assert result.text == TRAIN and not result.applied
    assert [r.finding.code for r in result.rejected] == ["ML001"]
    assert "would not compile" in result.rejected[0].reason
    assert codes_of(result.findings) == ["ML001"]

    path = tmp_path / "train.py"
    path.write_text(TRAIN)
    done = run_cli("--fix", str(path))
    assert path.read_text() == TRAIN
    assert done.exit_code == 1  # the finding remains
    assert "ML001 fix not applied: the result would not compile" in done.output


def test_a_fix_that_introduces_a_finding_is_refused(monkeypatch) -> None:
    def leaky(finding):
        if not finding.fix.edits:
            return finding.fix  # (the leak it introduces: a model's output, not known to be a tensor)
        edit = finding.fix.edits[0]
        # Detaches `loss`, but keeps the whole output on the next line: a new leak.
        content = "loss.detach())\n        losses.append(model(x)"
        return Fix(Applicability.SAFE, "leaky", (Edit(content, edit.start, edit.end),))

    _inject(monkeypatch, leaky)
    result = fix_source(TRAIN, "t.py", CODES)
    assert result.text == TRAIN
    assert "new finding, ML001" in result.rejected[0].reason


def test_a_fix_that_does_not_resolve_its_finding_is_refused_not_repeated(monkeypatch) -> None:
    def useless(finding):
        edit = finding.fix.edits[0]
        return Fix(Applicability.SAFE, "useless", (Edit("(loss)", edit.start, edit.end),))

    _inject(monkeypatch, useless)
    result = fix_source(TRAIN, "t.py", CODES)
    assert result.text == TRAIN  # not `((loss))`, `(((loss)))`, ... round after round
    assert [r.finding.code for r in result.rejected] == ["ML001"]
    assert "still has ML001 on that line" in result.rejected[0].reason


def test_a_refused_fix_tried_again_after_others_moved_it_is_reported_once(monkeypatch) -> None:
    text = src(
        """
        def evaluate(model, loader):
            model.eval()
            for x, y in loader:
                out = model(x)


        def test_model(model, loader):
            model.eval()
            for x, y in loader:
                out = model(x)
        """
    )

    def second_broken(finding):
        if "test_model" not in finding.message:
            return finding.fix
        end = Position(text.count("\n") + 1, 1)
        return replace(finding.fix, edits=(*finding.fix.edits, Edit("(\n", end, end)))

    _inject(monkeypatch, second_broken, "ML003")
    result = fix_source(text, "t.py", CODES, unsafe=True)
    # Round 1 adds `import torch` for `evaluate`; `test_model`'s fix, now without the import, is tried again.
    assert result.text.startswith("import torch\n@torch.no_grad()\ndef evaluate")
    assert "@torch.no_grad()\ndef test_model" not in result.text
    assert len(result.rejected) == 1 and result.rejected[0].finding.location.row == 12  # where it is now


def test_only_the_failing_fix_of_a_round_is_dropped(monkeypatch) -> None:
    text = TRAIN.replace("    return losses\n", "") + src(
        """
            totals = []
            for x, y in loader:
                out = model(x).sum()
                totals.append(out)
            return losses, totals
        """
    ).replace("\n", "\n    ").rstrip(" ").replace("totals = []", "    totals = []", 1)
    findings = lint(text)
    assert [f.code for f in findings] == ["ML001", "ML001"]

    def second_broken(finding):
        if "`out`" in finding.message:
            edit = finding.fix.edits[0]
            return Fix(Applicability.SAFE, "broken", (Edit("out.detach(", edit.start, edit.end),))
        return finding.fix

    _inject(monkeypatch, second_broken)
    result = fix_source(text, "t.py", CODES)
    assert "losses.append(loss.detach())" in result.text and "totals.append(out)" in result.text
    assert len(result.applied) == 1 and len(result.rejected) == 1


# --------------------------------------------------------------------------- files: encodings, writes


def test_crlf_line_endings_are_kept(tmp_path) -> None:
    path = tmp_path / "loop.py"
    path.write_bytes(EVAL_LOOP.replace("\n", "\r\n").encode())
    done = run_cli("--fix", "--unsafe-fixes", str(path))
    assert done.exit_code == 0, done.output
    data = path.read_bytes()
    assert b"with torch.no_grad():\r\n" in data and b".detach().cpu())\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")


def test_pep263_encoding_and_cookie_are_kept(tmp_path) -> None:
    text = "# -*- coding: latin-1 -*-\n# Auteur : Hélène\n" + EVAL_FUNCTION.split("\n", 1)[1].replace(
        "from __future__ import annotations\n\n", ""
    ).replace("print(out.sum().item())", "print('précision', out.sum().item())")
    path = tmp_path / "latin.py"
    path.write_bytes(text.encode("latin-1"))
    done = run_cli("--fix", "--unsafe-fixes", str(path))
    assert done.exit_code == 0, done.output
    data = path.read_bytes()
    assert data.startswith(b"# -*- coding: latin-1 -*-\n")  # the cookie stays on line 1
    assert "Hélène".encode("latin-1") in data and "précision".encode("latin-1") in data
    assert data.decode("latin-1") == text.replace("from torch import nn", "import torch\nfrom torch import nn").replace(
        "def evaluate", "@torch.no_grad()\ndef evaluate"
    )


def test_utf8_bom_is_kept(tmp_path) -> None:
    path = tmp_path / "bom.py"
    path.write_bytes(b"\xef\xbb\xbf" + TRAIN.replace("# keep", "# garder \u00e9").encode())
    assert run_cli("--fix", str(path)).exit_code == 0
    data = path.read_bytes()
    assert data == b"\xef\xbb\xbf" + TRAIN_FIXED.replace("# keep", "# garder \u00e9").encode()


def test_permissions_are_kept_and_no_temporary_file_is_left(tmp_path) -> None:
    path = tmp_path / "train.py"
    path.write_text(TRAIN)
    os.chmod(path, 0o751)
    assert run_cli("--fix", str(path)).exit_code == 0
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o751
    assert path.read_text() == TRAIN_FIXED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]


def test_a_symlink_is_followed_not_replaced(tmp_path) -> None:
    real = tmp_path / "real.py"
    real.write_text(TRAIN)
    link = tmp_path / "link.py"
    link.symlink_to(real)
    result = fix_path(str(link), CODES)
    assert result.written and link.is_symlink()
    assert real.read_text() == TRAIN_FIXED


def test_a_file_changed_while_fixing_is_not_overwritten(monkeypatch, tmp_path) -> None:
    path = tmp_path / "train.py"
    path.write_text(TRAIN)
    real = fixes.fix_source

    def slow_fix(*args, **kwargs):
        result = real(*args, **kwargs)
        path.write_text(TRAIN + "# edited meanwhile\n")  # the user saved the file in the meantime
        return result

    monkeypatch.setattr(fixes, "fix_source", slow_fix)
    result = fix_path(str(path), CODES)
    assert not result.written
    assert "changed on disk" in result.errors[0].message
    assert path.read_text() == TRAIN + "# edited meanwhile\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]


def test_a_writable_file_in_an_unwritable_directory_is_fixed_in_place(monkeypatch, tmp_path) -> None:
    """No temporary file can be made next to it, but the user may write the file: as an editor
    does, memlint rewrites it in place (same inode). A file the user may not write is refused
    (tests/test_fix_writes.py)."""
    path = tmp_path / "train.py"
    path.write_text(TRAIN)
    inode = os.stat(path).st_ino

    def mkstemp(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(fixes.tempfile, "mkstemp", mkstemp)
    done = run_cli("--fix", str(path))
    assert done.exit_code == 0 and "Fixed 1 finding." in done.output
    assert path.read_text() == TRAIN_FIXED and os.stat(path).st_ino == inode


# --------------------------------------------------------------------------- rounds, idempotence


def test_fix_is_idempotent(tmp_path) -> None:
    for name, text in {"a.py": TRAIN, "b.py": EVAL_LOOP, "c.py": EVAL_FUNCTION, "d.py": AUTOCAST}.items():
        (tmp_path / name).write_text(text)
    first = run_cli("--fix", "--unsafe-fixes", str(tmp_path))
    after_first = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert "Fixed" in first.output
    second = run_cli("--fix", "--unsafe-fixes", "--show-fixes", str(tmp_path))
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == after_first
    assert "Fixed" not in second.output
    assert run_cli("--diff", "--unsafe-fixes", str(tmp_path)).exit_code == 0


def test_findings_that_become_fixable_are_fixed_in_later_rounds() -> None:
    result = fix_source(EVAL_LOOP, "t.py", CODES, unsafe=True)
    assert result.rounds == 2 and result.converged
    assert fix_source(result.text, "t.py", CODES, unsafe=True).applied == []


# --------------------------------------------------------------------------- command line


def test_diff_prints_a_unified_diff_writes_nothing_and_exits_1(tmp_path) -> None:
    path = tmp_path / "train.py"
    path.write_text(TRAIN)
    done = run_cli("--diff", str(path))
    assert done.exit_code == 1
    assert f"--- {path}\n+++ {path}\n" in done.stdout
    assert "-        losses.append(loss)  # keep for the plot\n+        losses.append(loss.detach())  # keep" in done.stdout
    assert "Would fix 1 finding." in done.stderr
    assert path.read_text() == TRAIN


def test_diff_exits_0_when_there_is_nothing_to_fix(tmp_path) -> None:
    path = tmp_path / "decode.py"
    path.write_text(AUTOCAST)  # ML002: an unsafe fix only
    done = run_cli("--diff", str(path))
    assert done.exit_code == 0 and done.stdout == ""
    done = run_cli("--diff", "--unsafe-fixes", str(path))
    assert done.exit_code == 1 and "+    with torch.autocast(\"cuda\", dtype=torch.bfloat16, cache_enabled=True):" in done.stdout
    assert path.read_text() == AUTOCAST
    clean = tmp_path / "clean.py"
    clean.write_text("x = 1\n")
    assert run_cli("--diff", str(clean)).exit_code == 0


def test_fix_reports_what_remains_and_sets_the_exit_code(tmp_path) -> None:
    path = tmp_path / "train.py"
    path.write_text(TRAIN + "\n\n" + AUTOCAST.replace("import torch\n\n\n", ""))
    done = run_cli("--fix", str(path))
    assert done.exit_code == 1  # ML002 (unsafe) remains
    assert "ML002" in done.stdout and "ML001" not in done.stdout
    assert "Fixed 1 finding." in done.stdout
    done = run_cli("--fix", "--unsafe-fixes", "--show-fixes", str(path))
    assert done.exit_code == 0
    assert f"Fixed 1 finding:\n- {path}:\n    1 × ML002 (autocast-cache-disabled)\n" in done.stdout
    assert "All checks passed!" in done.stdout


def test_fix_only_reports_fixes_not_findings(tmp_path) -> None:
    path = tmp_path / "train.py"
    path.write_text(TRAIN + "\n\n" + AUTOCAST.replace("import torch\n\n\n", ""))
    done = run_cli("--fix-only", str(path))
    assert done.exit_code == 0
    assert "ML002" not in done.output
    assert "Fixed 1 finding (1 more fix available with `--unsafe-fixes`)." in done.stdout
    assert "losses.append(loss.detach())" in path.read_text()


def test_json_and_text_output_carry_the_fix(tmp_path) -> None:
    path = tmp_path / "train.py"
    path.write_text(TRAIN)
    data = json.loads(run_cli("--format", "json", str(path)).stdout)
    assert data[0]["fix"] == {
        "applicability": "safe",
        "message": "Detach the stored value",
        "edits": [{"content": "loss.detach()", "location": {"row": 10, "column": 23}, "end_location": {"row": 10, "column": 27}}],
    }
    text = run_cli(str(path)).stdout
    assert "    fix (safe): Detach the stored value\n      10:23-10:27 → loss.detach()\n" in text
    empty = tmp_path / "empty.py"
    empty.write_text(EMPTY_CACHE)
    shown = run_cli(str(empty)).stdout  # a display-only fix that only repeats the help line: said once
    assert "    help: remove it" in shown and "fix (display-only)" not in shown


def test_fix_after_a_cached_lint_still_fixes(tmp_path) -> None:
    path = tmp_path / "train.py"
    path.write_text(TRAIN)
    cache = ["--cache-dir", str(tmp_path / ".cache")]
    runner = CliRunner()
    assert runner.invoke(main, [*cache, str(path)]).exit_code == 1
    assert runner.invoke(main, [*cache, "--fix", str(path)]).exit_code == 0
    assert path.read_text() == TRAIN_FIXED
    assert runner.invoke(main, [*cache, str(path)]).exit_code == 0


# --------------------------------------------------------------------------- test_cases/**/*.fixed.py


def bad_cases() -> list[Path]:
    return sorted(p for p in CASES.rglob("bad_*.py") if not p.name.endswith(".fixed.py"))


def rule_of(path: Path) -> str:
    return path.parent.name.split("_")[0]


def fixed_output(path: Path) -> str | None:
    """What `--fix --unsafe-fixes` makes of a test case (None: nothing to fix)."""
    result = fix_path(str(path), CODES, unsafe=True, write=False)
    assert not result.errors, result.errors
    return result.fixed if result.changed else None


def expected_path(path: Path) -> Path:
    return path.with_name(path.name[: -len(".py")] + ".fixed.py")


@pytest.mark.parametrize("path", bad_cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case_fixed_output(path: Path) -> None:
    expected = expected_path(path)
    actual = fixed_output(path)
    if actual is None:
        assert not expected.exists(), f"{expected} is stale: the case has nothing to fix"
        return
    assert expected.exists(), f"missing {expected}: run `python tests/test_fixes.py --regenerate`"
    assert actual == expected.read_text(encoding="utf-8"), f"{expected} differs: regenerate and read the diff"
    # The fixed output lints clean for the case's rule (when it has fixes to apply) and is stable.
    from memlint.rules import BY_CODE

    if BY_CODE[rule_of(path)].fix_applicability is not Applicability.DISPLAY_ONLY:
        remaining = [f for f in lint(actual, str(expected)) if f.code == rule_of(path)]
        assert not remaining, [(f.location.row, f.message) for f in remaining]
    assert fix_source(actual, str(expected), CODES, unsafe=True).applied == []


# ML001 cases whose kept value shows it is a tensor (`.backward()`/`.item()`/`.detach()` on it,
# arithmetic, a loss): `--fix` without `--unsafe-fixes` must remove their finding.
TENSOR_EVIDENCE_CASES = {
    "bad_loss_appended_after_backward.py",
    "bad_loss_kept_with_retain_graph.py",
    "bad_running_loss_plus_equals.py",
}


def test_safe_fixes_remove_every_ml001_with_tensor_evidence() -> None:
    folder = CASES / "ML001_retained_graph"
    for path in sorted(folder.glob("bad_*.py")):
        if path.name.endswith(".fixed.py"):
            continue
        text = path.read_text(encoding="utf-8")
        result = fix_source(text, str(path), CODES, unsafe=False)
        compile(result.text, str(path), "exec")
        remaining = [f for f in lint(result.text, str(path)) if f.code == "ML001"]
        safe_before = [f for f in lint(text, str(path)) if f.code == "ML001" and is_applicable(f.fix, False)]
        assert not [f for f in remaining if is_applicable(f.fix, False)], path
        if path.name in TENSOR_EVIDENCE_CASES:
            assert safe_before and not remaining, (path, [f.message for f in remaining])
        assert fix_source(result.text, str(path), CODES, unsafe=False).applied == [], path


def test_a_mapping_is_never_given_detach() -> None:
    text = (CASES / "ML001_retained_graph" / "bad_output_dict_loss_backwarded.py").read_text(encoding="utf-8")
    (finding,) = [f for f in lint(text) if f.code == "ML001"]
    assert finding.fix.applicability is Applicability.UNSAFE
    (edit,) = finding.fix.edits
    assert "output.detach()" not in edit.content and "for k, v in output.items()" in edit.content


def test_a_callee_only_named_like_a_loss_gets_no_detach() -> None:
    """pyro's `svi.evaluate_loss(x)` returns a Python float: a callee that is only named like a loss
    (no definition in the file) may return a number, where a safe `.detach()` would raise."""
    text = (
        "import torch\n\n\ndef main(svi, loader, epochs):\n    for epoch in range(epochs):\n        total = 0.0\n"
        "        for x, _ in loader:\n            total += svi.evaluate_loss(x)\n        print(epoch, total)\n"
    )
    (finding,) = [f for f in lint(text) if f.code == "ML001"]
    assert finding.fix is not None and not finding.fix.edits  # not known to be a tensor: no edit at all
    loss = text.replace("svi.evaluate_loss(x)", "torch.nn.functional.mse_loss(model(x), x)").replace("svi,", "model,")
    (finding,) = [f for f in lint(loss) if f.code == "ML001"]
    assert finding.fix.applicability is Applicability.SAFE  # a loss of torch is a tensor


def test_every_expected_output_has_its_case() -> None:
    for expected in CASES.rglob("*.fixed.py"):
        assert expected.with_name(expected.name.replace(".fixed.py", ".py")).exists(), expected


def regenerate() -> None:
    for path in bad_cases():
        expected = expected_path(path)
        actual = fixed_output(path)
        if actual is None:
            if expected.exists():
                expected.unlink()
                print(f"removed {expected}")
            continue
        if not expected.exists() or expected.read_text(encoding="utf-8") != actual:
            expected.write_text(actual, encoding="utf-8", newline="")
            print(f"wrote {expected}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        regenerate()
    else:
        print(__doc__)
