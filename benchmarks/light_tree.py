"""Light trees (memlint/analysis/syntax/light.py) against LibCST's parser over folders of Python files.

    python benchmarks/light_tree.py FOLDER [FOLDER...] [--limit N] [--show N]

Per folder: files, files translated (the rest: light_module returned None), files whose light tree
equals LibCST's (benchmarks/light_compare.py), the most common first mismatches by node type and
field, the share of spans equal to PositionProvider's, and the CPU (time.process_time, one process)
of the translation against `ast.parse` and `libcst.parse_module` of the same files.
Exits 1 if any translated file is unequal (a light tree must be LibCST's or None).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

import libcst as cst

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from light_compare import span_mismatches, tree_mismatch  # noqa: E402

from memlint.analysis.syntax.light import light_module  # noqa: E402
from memlint.analysis.syntax.light_source import Untranslated  # noqa: E402

_LAST_STEP = re.compile(r"(?:<(\w+)>)?\.(\w+)(?:\[\d+\])?: (.*)$")


def _key(mismatch: str) -> str:
    """'NodeType.field' of a mismatch's last step."""
    match = _LAST_STEP.search(mismatch)
    return f"{match.group(1) or 'Module'}.{match.group(2)}" if match else mismatch


def why_untranslated(tree: ast.Module, text: str) -> str:
    """The reason light_module returned None (for the report)."""
    from memlint.analysis.syntax.light import _Translator

    try:
        _Translator(text).statements(tree.body)
    except Untranslated as error:
        return f"Untranslated: {error}"
    except Exception as error:  # noqa: BLE001 -- reported, whatever it is
        return f"{type(error).__name__}: {error}"
    return "?"


def run(folder: Path, limit: int | None, show: int, spans: bool) -> bool:
    files = sorted(folder.rglob("*.py"))[:limit]
    texts = []
    for path in files:
        try:
            texts.append((path, path.read_text(encoding="utf-8")))
        except (UnicodeDecodeError, OSError):
            continue
    # One file at a time, as memlint lints them: holding every tree would tax the cyclic GC.
    files_parsed = translated = equal = spans_checked = spans_equal = 0
    parse_cpu = light_cpu = libcst_cpu = 0.0
    mismatches: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    examples: dict[str, str] = {}
    for path, text in texts:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            start = time.process_time()
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError, RecursionError):
                continue
            parse_cpu += time.process_time() - start
        start = time.process_time()
        light = light_module(tree, text)
        light_cpu += time.process_time() - start
        start = time.process_time()
        try:
            parsed = cst.parse_module(text)
        except Exception:  # noqa: BLE001 -- LibCST rejects some valid code: not comparable
            continue
        libcst_cpu += time.process_time() - start
        files_parsed += 1
        if light is None:
            reason = why_untranslated(tree, text)
            reasons[reason[:70]] += 1
            examples.setdefault(reason[:70], str(path))
            continue
        translated += 1
        found = tree_mismatch(light.module, parsed)
        if found is not None:
            mismatches[_key(found)] += 1
            examples.setdefault(_key(found), f"{path}: {found}")
            continue
        equal += 1
        if spans:
            checked, same, differences = span_mismatches(light.module, light.spans, parsed)
            spans_checked += checked
            spans_equal += same
            for difference in differences[:1]:
                kind = difference.split(" ", 1)[0]
                mismatches[f"span {kind}"] += 1
                examples.setdefault(f"span {kind}", f"{path}: {difference}")
    print(f"{folder}: {files_parsed} files, {translated} translated, {equal} equal")
    if spans:
        share = 100 * spans_equal / spans_checked if spans_checked else 100.0
        print(f"  spans equal: {spans_equal}/{spans_checked} ({share:.3f}%)")
    print(f"  CPU: translation {light_cpu:.2f} s, ast.parse {parse_cpu:.2f} s, libcst.parse_module {libcst_cpu:.2f} s")
    for key, count in mismatches.most_common(show):
        print(f"  mismatch {key}: {count}  e.g. {examples[key]}")
    for key, count in reasons.most_common(show):
        print(f"  None ({key}): {count}  e.g. {examples[key]}")
    return translated == equal


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--limit", type=int, default=None, help="at most this many files per folder")
    parser.add_argument("--show", type=int, default=8, help="mismatch kinds and None reasons to print")
    parser.add_argument("--no-spans", action="store_true", help="skip the span check (PositionProvider is slow)")
    args = parser.parse_args()
    ok = True
    for folder in args.folders:
        ok = run(folder, args.limit, args.show, not args.no_spans) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
