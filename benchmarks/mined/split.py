"""The fixed dev/test split of the mined benchmark, decided before memlint changes for it.

    python benchmarks/mined/split.py            # print each manifest's repositories by half

A repository studied before (one of benchmarks/real_bugs/manifest.json) is in the
dev half; every other repository goes to the half that the SHA-1 of its lower-cased
name picks. The rule reads nothing but the name, so a bug's half never depends on
what memlint finds.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
STUDIED = HERE.parent / "real_bugs" / "manifest.json"


@functools.cache
def studied() -> frozenset[str]:
    """The repositories of the real-bugs benchmark (studied before this benchmark existed)."""
    return frozenset(bug["repo"] for bug in json.loads(STUDIED.read_text(encoding="utf-8"))["bugs"])


def half(repo: str) -> str:
    """'dev' or 'test' for a repository named 'owner/name'."""
    if repo in studied():
        return "dev"
    return "test" if int(hashlib.sha1(repo.lower().encode()).hexdigest(), 16) % 2 else "dev"


def dev_part(repo: str) -> str:
    """'dev-a' (studied) or 'dev-b' (held out) for a repository of the dev half.

    Studying dev-a and measuring dev-b, whose misses are not read, checks that a change made for
    the dev half transfers before the test half is measured. The rule is the SHA-256 of the name,
    independent of the SHA-1 that picks the half; repositories studied before stay in dev-a.
    """
    if repo in studied():
        return "dev-a"
    return "dev-b" if int(hashlib.sha256(repo.lower().encode()).hexdigest(), 16) % 2 else "dev-a"


def main() -> None:
    for manifest in sorted(HERE.glob("manifest_*.json")):
        repos = sorted({bug["repo"] for bug in json.loads(manifest.read_text(encoding="utf-8"))["bugs"]})
        for name in ("dev", "test"):
            print(f"{manifest.name} {name}: {sum(half(r) == name for r in repos)} repositories")
        dev = [r for r in repos if half(r) == "dev"]
        print(f"{manifest.name} dev-b (held out): {sum(dev_part(r) == 'dev-b' for r in dev)} repositories")


if __name__ == "__main__":
    main()
