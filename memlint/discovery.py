"""Which files to lint: walk directories, honour excludes, virtualenvs and .gitignore."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memlint.config import DEFAULT_INCLUDE
from memlint.patterns import matches_any

if TYPE_CHECKING:
    import pathspec


@dataclass
class Discovery:
    files: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # named on the command line but absent
    warnings: list[str] = field(default_factory=list)  # vanished or unreadable directories


def is_excluded(path: str, exclude: list[str], root: Path) -> bool:
    """Whether `exclude` matches the file or one of its directories below the project root."""
    current = Path(os.path.abspath(path))
    top = Path(os.path.abspath(root))
    while current != top:  # the root itself may be named like an exclude (`build/`)
        if matches_any(str(current), exclude, root):
            return True
        if top not in current.parents:
            return False
        current = current.parent
    return False


class GitIgnore:
    """Git's ignore rules, matched by pathspec's `GitIgnoreSpec` (git's own pattern semantics:
    anchoring, `[Bb]uild/`, escapes, `**`, negation; what black and mypy use).

    Sources, from lowest to highest precedence as git ranks them: the global excludes file
    (`core.excludesFile`, else `$XDG_CONFIG_HOME/git/ignore`), the repository's
    `info/exclude`, then each `.gitignore` from the top of the work tree down. A path takes
    the verdict of the highest source with a pattern that matches it."""

    def __init__(self) -> None:
        self.sources: list[tuple[str, pathspec.GitIgnoreSpec]] = []  # (base directory, patterns)

    def add_file(self, ignore_file: str, base: str | None = None) -> None:
        """Add the patterns of `ignore_file`, relative to `base` (default: the file's directory)."""
        import pathspec  # here: a tree outside git reads no ignore file, and a warm run needs no pathspec

        try:
            with open(ignore_file, encoding="utf-8", errors="replace") as handle:
                spec = pathspec.GitIgnoreSpec.from_lines(handle.read().splitlines())
        except OSError:
            return
        if spec.patterns:
            self.sources.append((os.path.abspath(base or os.path.dirname(ignore_file)), spec))

    def add_repository(self, git_root: Path) -> None:
        """The sources git reads for the whole work tree, below every `.gitignore`."""
        self.add_file(_global_excludes_file(git_root), str(git_root))
        git_dir = _git_dir(git_root)
        if git_dir is not None:
            self.add_file(str(git_dir / "info" / "exclude"), str(git_root))

    def walk_from(self, directory: str) -> None:
        """Drop the patterns that ignore `directory` itself or a folder above it: a directory
        named on the command line is linted even where git ignores it, as ruff does; the
        patterns that match within it still apply."""
        import pathspec

        absolute = os.path.abspath(directory)
        kept = []
        for base, spec in self.sources:
            if absolute.startswith(base + os.sep):
                relative = absolute[len(base) + 1 :].replace(os.sep, "/") + "/"
                patterns = [p for p in spec.patterns if not (p.include and p.match_file(relative))]
                if len(patterns) != len(spec.patterns):
                    spec = pathspec.GitIgnoreSpec(patterns)
            kept.append((base, spec))
        self.sources = kept

    def ignored(self, path: str, is_dir: bool) -> bool:
        absolute = os.path.abspath(path)
        for base, spec in reversed(self.sources):
            if not absolute.startswith(base + os.sep):
                continue
            relative = absolute[len(base) + 1 :].replace(os.sep, "/")
            verdict = spec.check_file(relative + "/" if is_dir else relative).include
            if verdict is not None:
                return verdict
        return False


def _git_root(start: Path) -> Path | None:
    for directory in [start, *start.parents]:
        if (directory / ".git").exists():
            return directory
    return None


def _git_dir(git_root: Path) -> Path | None:
    """The directory that holds `info/exclude`: `.git`, or for a linked work tree (`.git` is a
    file naming its gitdir) the common directory of the repository."""
    dot_git = git_root / ".git"
    if dot_git.is_dir():
        return dot_git
    try:
        line = dot_git.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if not line.startswith("gitdir:"):
        return None
    git_dir = (git_root / line[len("gitdir:") :].strip()).resolve()
    try:
        return (git_dir / (git_dir / "commondir").read_text(encoding="utf-8").strip()).resolve()
    except OSError:
        return git_dir


def _global_excludes_file(git_root: Path) -> str:
    """`core.excludesFile` as git resolves it (global, system and repository configuration,
    `~` expanded), else git's default, `$XDG_CONFIG_HOME/git/ignore` or `~/.config/git/ignore`."""
    import subprocess  # here: only a tree in git asks

    try:
        done = subprocess.run(
            ["git", "config", "--path", "--get", "core.excludesFile"],
            cwd=git_root, capture_output=True, text=True, timeout=10,
        )
        if done.returncode == 0 and done.stdout.strip():
            return os.path.join(git_root, done.stdout.strip())  # a relative value is relative to the work tree
    except (OSError, subprocess.SubprocessError):
        pass  # no git: its default still applies
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config_home, "git", "ignore")


def discover(paths: list[str], exclude: list[str], root: Path, include: list[str] | None = None) -> Discovery:
    """Files to lint under `paths`: in a directory, those matching `include`
    (globs: one without `/` matches the base name, one with `/` the path
    relative to `root`) and not excluded."""
    include = DEFAULT_INCLUDE if include is None else include
    found = Discovery()
    seen: set[str] = set()

    def add(path: str) -> None:
        key = os.path.abspath(path)
        if key not in seen:
            seen.add(key)
            found.files.append(path)

    for given in paths:
        if os.path.isfile(given) or (os.path.lexists(given) and not os.path.isdir(given)):
            add(given)  # a file named explicitly is always linted (a FIFO or a link loop: an ML900 finding)
            continue
        if not os.path.isdir(given):
            found.missing.append(given)
            continue
        gitignore = GitIgnore()
        start = Path(given).resolve()
        git_root = _git_root(start)
        if git_root is not None:
            gitignore.add_repository(git_root)
            for directory in reversed([start, *start.parents]):
                if git_root in (directory, *directory.parents) and directory != start:
                    candidate = directory / ".gitignore"
                    if candidate.is_file():
                        gitignore.add_file(str(candidate))
            gitignore.walk_from(str(start))
        _walk(given, exclude, include, root, gitignore, add, found)
    return found


def _walk(
    top: str, exclude: list[str], include: list[str], root: Path, gitignore: GitIgnore, add, found: Discovery
) -> None:
    # A pattern without `/` (`*.py`) matches the base name: no path arithmetic for each file of the tree.
    by_name = [p for p in include if "/" not in p]
    by_path = [p for p in include if "/" in p]

    def onerror(error: OSError) -> None:
        found.warnings.append(f"{error.filename}: {error.strerror or error} (skipped)")

    for directory, dirnames, filenames in os.walk(top, onerror=onerror):
        if ".gitignore" in filenames:
            gitignore.add_file(os.path.join(directory, ".gitignore"))
        kept = []
        for name in sorted(dirnames):
            sub = os.path.join(directory, name)
            if matches_any(sub, exclude, root) or gitignore.ignored(sub, True):
                continue
            if os.path.exists(os.path.join(sub, "pyvenv.cfg")):
                continue  # a virtual environment
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            path = os.path.join(directory, name)
            if not (any(fnmatch.fnmatch(name, p) for p in by_name) or (by_path and matches_any(path, by_path, root))):
                continue
            if matches_any(path, exclude, root) or gitignore.ignored(path, False):
                continue
            add(path)
