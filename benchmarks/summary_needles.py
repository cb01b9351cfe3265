"""What each needle of the project summary costs: the files read for it alone.

    python benchmarks/summary_needles.py DIR [DIR ...]

A file that no rule needs (none of a rule's needles in its text), that is no package `__init__.py`
importing names and that no other file of the project imports from is still analysed for its
summary where its text holds one of `SUMMARY_NEEDLES` (analysis/project.py): other files' findings
may depend on it. For each needle, this prints how many files hold it with no other reason to be
read: the files it alone brings in, an upper bound (the engine still reads such a file where it
imports from the project), and their size. A needle that brings in no file costs a substring
search of the few files that reach it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from memlint import project_view
from memlint.analysis.project import SUMMARY_NEEDLES
from memlint.rules import BY_CODE


def main() -> None:
    for root in map(Path, sys.argv[1:]):
        paths = sorted(str(p) for p in root.rglob("*.py") if p.is_file())
        edges, names = project_view.import_edges(paths, root)
        project_view.start(paths, root, {other for imported in edges.values() for other in imported}, names)
        alone: dict[str, list[int]] = {needle: [0, 0] for needle in SUMMARY_NEEDLES}
        unread = 0
        for path in paths:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
            reexports = path.endswith("__init__.py") and "import" in text
            if reexports or project_view.imported(path) or any(r.may_apply(text, False) for r in BY_CODE.values()):
                continue
            unread += 1
            held = [needle for needle in SUMMARY_NEEDLES if needle in text]
            if len(held) == 1:
                alone[held[0]][0] += 1
                alone[held[0]][1] += len(text)
        project_view.stop()
        print(f"{root}: {len(paths)} files, {unread} that no rule needs and no file imports from")
        print("| needle | files it alone brings in | their size (kB) |\n|---|---|---|")
        for needle, (files, size) in alone.items():
            print(f"| `{needle}` | {files} | {size / 1000:.0f} |")


if __name__ == "__main__":
    main()
