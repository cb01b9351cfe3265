"""`[tool.memlint]` in the nearest pyproject.toml, merged with command-line options."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from memlint.patterns import matches_any
from memlint.rules.catalog import FILE_CODES, OPT_IN_CODES, RULE_CODES, file_problem_code, rule_code

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

DEFAULT_EXCLUDE = [
    ".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox", ".eggs",
    "build", "dist", "__pycache__", "site-packages", "node_modules", ".mypy_cache",
    ".pytest_cache", ".ruff_cache", ".memlint_cache", "*.egg-info", ".ipynb_checkpoints",
]
DEFAULT_INCLUDE = ["*.py", "*.pyi", "*.ipynb"]
KNOWN_KEYS = {
    "select", "ignore", "extend-select", "per-file-ignores", "exclude", "extend-exclude", "include", "extend-include",
    "preview",
}


class ConfigError(Exception):
    """A configuration or usage problem: exit code 2 with one clear line."""


@dataclass
class Settings:
    codes: list[str]  # enabled rule codes, ML000 and ML900 included unless ignored
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDE))
    include: list[str] = field(default_factory=lambda: list(DEFAULT_INCLUDE))  # files a directory walk lints
    root: Path = field(default_factory=Path.cwd)
    config_file: Path | None = None
    # show findings that rest on a guess about code out of sight (a callee named like a loss, a
    # meter whose class is not in the project), like ruff's preview
    preview: bool = False

    def fingerprint(self) -> str:
        """What the cache must key on besides file content and version."""
        ignores = sorted((k, sorted(v)) for k, v in self.per_file_ignores.items())
        return repr((sorted(self.codes), ignores))

    def describe(self, path: str) -> list[str]:
        """`--show-settings`: the settings that apply to `path`, one `key = value` a line (ruff's habit)."""
        return [
            f"Resolved settings for: {path!r}",
            f"Settings path: {str(self.config_file) if self.config_file else 'none (defaults)'!r}",
            "",
            f"root = {str(self.root)!r}",
            f"select = {self.codes!r}",
            f"per-file-ignores = {self.per_file_ignores!r}",
            f"exclude = {self.exclude!r}",
            f"include = {self.include!r}",
            f"codes for this file = {self.codes_for(path)!r}",
        ]

    def codes_for(self, path: str) -> list[str]:
        ignored: set[str] = set()
        for pattern, codes in self.per_file_ignores.items():
            if matches_any(path, [pattern], self.root, contents=True):  # `tests/*`: what lies below too
                ignored.update(codes)
        return [c for c in self.codes if c not in ignored]


def find_pyproject(start: Path) -> Path | None:
    """The closest pyproject.toml (upwards from `start`) that has a [tool.memlint] table."""
    start = start.resolve()
    for directory in [start, *start.parents]:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if "tool.memlint" not in text:
                continue
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise ConfigError(f"{candidate}: invalid TOML: {exc}") from None
            if "memlint" in data.get("tool", {}):
                return candidate
    return None


def read_table(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    table = data.get("tool", {}).get("memlint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.memlint] must be a table")
    unknown = set(table) - KNOWN_KEYS
    if unknown:
        raise ConfigError(
            f"{path}: unknown key(s) in [tool.memlint]: {', '.join(sorted(unknown))} "
            f"(known: {', '.join(sorted(KNOWN_KEYS))})"
        )
    return table


ALL_CODES = frozenset(RULE_CODES) | FILE_CODES | OPT_IN_CODES


def resolve_codes(selectors: Iterable[str], where: str) -> set[str]:
    codes: set[str] = set()
    for raw in selectors:
        if not isinstance(raw, str):
            raise ConfigError(f"{where}: rule selectors must be strings, got {raw!r}")
        selector = raw.strip()
        if not selector:
            continue
        if selector.upper() == "ALL":
            codes |= ALL_CODES
        elif (problem := file_problem_code(selector)) is not None:
            codes.add(problem)
        elif (code := rule_code(selector)) is not None:
            codes.add(code)
        else:
            # A code prefix, as in ruff: `ML` every rule, `ML0` ML000-ML015, `ML00` ML000-ML009.
            matched = {code for code in ALL_CODES if code.startswith(selector.upper())}
            if not matched or not selector.upper().startswith("ML"):
                raise ConfigError(f"{where}: unknown rule {selector!r} (see `memlint rules`)")
            codes |= matched
    return codes


def _list(table: dict[str, Any], key: str, path: Path) -> list[str] | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: `{key}` must be a list of strings")
    return value


def _flag(table: dict[str, Any], key: str, where: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: `{key}` must be true or false")
    return value


def split_option(values: Iterable[str]) -> list[str]:
    """`--select ML001,ML002 --select ML003` -> [ML001, ML002, ML003]."""
    return [part for value in values for part in value.split(",") if part.strip()]


def load_settings(
    *,
    config_file: Path | None = None,
    start: Path | None = None,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    extend_select: list[str] | None = None,
    isolated: bool = False,
    preview: bool = False,
) -> Settings:
    path = None if isolated else (config_file or find_pyproject(start or Path.cwd()))
    if config_file is not None and not config_file.is_file():
        raise ConfigError(f"{config_file}: no such configuration file")
    table = read_table(path) if path else {}
    where = str(path) if path else "configuration"

    base = _list(table, "select", path) if path else None
    chosen = resolve_codes(select, "--select") if select else (
        resolve_codes(base, where) if base is not None else resolve_codes(["ALL"], where) - OPT_IN_CODES
    )
    chosen |= FILE_CODES  # a file that does not parse or cannot be read is always reported
    if path:
        chosen |= resolve_codes(_list(table, "extend-select", path) or [], where)
        chosen -= resolve_codes(_list(table, "ignore", path) or [], where)
    chosen |= resolve_codes(extend_select or [], "--extend-select")
    chosen -= resolve_codes(ignore or [], "--ignore")

    per_file: dict[str, list[str]] = {}
    raw_per_file = table.get("per-file-ignores", {})
    if not isinstance(raw_per_file, dict):
        raise ConfigError(f"{where}: `per-file-ignores` must be a table of glob = [codes]")
    for pattern, codes in raw_per_file.items():
        if not isinstance(codes, list):
            raise ConfigError(f"{where}: per-file-ignores[{pattern!r}] must be a list of codes")
        per_file[pattern] = sorted(resolve_codes(codes, f"{where}: per-file-ignores"))

    exclude = list(DEFAULT_EXCLUDE)
    if path and (custom := _list(table, "exclude", path)) is not None:
        exclude = custom
    if path:
        exclude += _list(table, "extend-exclude", path) or []
    include = list(DEFAULT_INCLUDE)
    if path and (custom := _list(table, "include", path)) is not None:
        include = custom
    if path:
        include += _list(table, "extend-include", path) or []
    root = (path.parent if path else (start or Path.cwd())).resolve()  # files are found by their real paths
    order = {code: i for i, code in enumerate(RULE_CODES)}
    return Settings(
        codes=sorted(chosen, key=lambda c: (order.get(c, -1), c)),  # a total order: cache keys hold it
        per_file_ignores=per_file,
        exclude=exclude,
        include=include,
        root=root if root.is_dir() else root.parent,
        config_file=path,
        preview=preview or _flag(table, "preview", where),
    )
