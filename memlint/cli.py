"""Command line: `memlint [lint|check] PATHS`, `memlint rules`, `memlint explain|rule CODE`.

Exit codes follow ruff: 0 no findings, 1 findings, 2 usage, configuration or
internal error.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path
from typing import NoReturn

import click

from memlint import __version__, formats
from memlint.cache import CACHE_DIR, Cache
from memlint.config import ConfigError, Settings, load_settings, split_option
from memlint.discovery import discover, is_excluded
from memlint.output import open_output
from memlint.rules import FILE_CODES
from memlint.models import describe
from memlint.workers import RunResult, available_cpus, lint_files

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
HUMAN_FORMATS = ("text", "concise")  # read by people: fix summaries go to stdout with them


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as ruff and shells report Ctrl-C


class Terminated(BaseException):
    """SIGTERM (a cancelled CI job): unwinds like Ctrl-C, so that workers end and the cache is saved."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _on_sigterm(signum: int, frame: object) -> None:
    raise Terminated(signum)


class DefaultGroup(click.Group):
    """`memlint src/` means `memlint lint src/`, as `ruff src/` once meant `ruff check src/`.

    Every command ends like ruff's: Ctrl-C exits 130 and SIGTERM 143 (click would say
    `Aborted!` and exit 1), and an unexpected exception is one line and exit 2, never a traceback."""

    # ruff's names beside memlint's own: `memlint check .`, `memlint rule ML001`
    ALIASES = {"check": "lint", "rule": "explain"}

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        known = (*self.commands, *self.ALIASES, "--help", "-h", "--version")
        if not args or args[0] not in known:
            args = ["lint", *args]
        try:  # `memlint --help | head -1`: the help is printed while parsing
            return super().parse_args(ctx, args)
        except BrokenPipeError:
            _closed_pipe_exit()

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, self.ALIASES.get(cmd_name, cmd_name))

    def invoke(self, ctx: click.Context):
        main_thread = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, _on_sigterm) if main_thread else None
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("memlint: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except Terminated as stop:
            click.echo("memlint: terminated", err=True)
            sys.exit(128 + stop.signum)
        except BrokenPipeError:
            _closed_pipe_exit()
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, exit 2
            error_line(f"internal error: {describe(exc)}")
            sys.exit(EXIT_ERROR)
        finally:
            if main_thread:
                signal.signal(signal.SIGTERM, previous)


def _closed_pipe_exit() -> NoReturn:
    """`memlint rules | head -1`: the reader has all it wanted. Point stdout at /dev/null so that
    the interpreter's final flush does not fail again, and exit quietly with 0, as ruff does."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(EXIT_CLEAN)


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="memlint")
def main() -> None:
    """memlint: find GPU memory leaks in PyTorch training code."""


def use_color(no_color: bool, stream=None) -> bool:
    stream = stream or sys.stdout
    return not no_color and "NO_COLOR" not in os.environ and hasattr(stream, "isatty") and stream.isatty()


def _settings(
    config: str | None, select, ignore, extend_select, paths: list[str], preview: bool = False, isolated: bool = False
) -> Settings:
    if isolated and config:
        raise ConfigError("--config cannot be used with --isolated")
    start = Path(paths[0]) if paths else Path.cwd()
    start = start if start.is_dir() else start.parent
    return load_settings(
        config_file=Path(config) if config else None,
        isolated=isolated,
        start=start if str(start) else Path.cwd(),
        select=split_option(select) or None,
        ignore=split_option(ignore),
        extend_select=split_option(extend_select),
        preview=preview,
    )


def error_line(message: str) -> None:
    click.echo(f"memlint: error: {message}", err=True)


@main.command("lint", short_help="Lint files and directories (alias: check).")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--select", multiple=True, help="Rule codes or names to enable (comma-separated; ALL for every rule).")
@click.option("--ignore", multiple=True, help="Rule codes or names to disable.")
@click.option("--extend-select", multiple=True, help="Rule codes or names to enable on top of the selection.")
@click.option(
    "--output-format",
    "--format",
    "output_format",
    default="text",
    show_default=True,
    help="Output format: text, concise (one line a finding), json, github, sarif, gitlab or rdjson.",
)
@click.option("--show-source", is_flag=True, help="Show the flagged code under each finding (text and concise).")
@click.option(
    "--preview",
    is_flag=True,
    help="Also show findings that rest on a guess about code out of sight (a callee named like a loss, "
    "a flag or a rank known only by its name, a meter whose class is not in the project, a model handed in "
    "by callers out of sight); config: `preview = true`.",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("-q", "--quiet", is_flag=True, help="Print findings, nothing else.")
@click.option("--statistics", is_flag=True, help="Print the number of findings per rule.")
@click.option("--no-color", is_flag=True, help="Never colour the output.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None, help=f"Cache directory (default: {CACHE_DIR}).")
@click.option("--config", type=click.Path(dir_okay=False), default=None, help="pyproject.toml to read [tool.memlint] from.")
@click.option(
    "--isolated",
    is_flag=True,
    help="Ignore all configuration files: default rules and excludes, the first path's directory as the project root.",
)
@click.option("-o", "--output-file", type=click.Path(dir_okay=False), default=None, help="Write the report to a file.")
@click.option(
    "--diff-base",
    metavar="REV",
    default=None,
    help="Pull-request mode: lint only Python files changed since the merge base with REV, "
    "and report only findings on added or modified lines.",
)
@click.option(
    "--force-exclude",
    is_flag=True,
    help="Apply `exclude` to files named on the command line too (for pre-commit, which names every file).",
)
@click.option("--show-files", is_flag=True, help="List the files that would be linted, one a line, and exit.")
@click.option(
    "--show-settings",
    is_flag=True,
    help="Print the settings that apply to the first file (configuration file, rules, excludes) and exit.",
)
@click.option("--fix", is_flag=True, help="Apply safe fixes, then report the findings that remain.")
@click.option("--unsafe-fixes", is_flag=True, help="Apply unsafe fixes too (with --fix, --fix-only or --diff).")
@click.option("--fix-only", is_flag=True, help="Apply fixes and report only what was fixed (exit 0 unless errors).")
@click.option("--diff", is_flag=True, help="Print a unified diff of what --fix would change; write nothing (exit 1 if any).")
@click.option("--show-fixes", is_flag=True, help="List the findings that were fixed.")
@click.option(
    "--add-noqa",
    is_flag=True,
    help="Add `# noqa: CODE` to each line with a finding (files that would not parse are not written); exit 0.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help=f"Worker processes (default: the CPUs this process may use, at most 8; here {available_cpus()}). "
    "Runs of fewer than 16 files to lint use none.",
)
@click.option(
    "--stdin-filename",
    default=None,
    help="The name of the file read from standard input (`-`): for messages, per-file settings and excludes.",
)
def lint(
    paths: tuple[str, ...],
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    extend_select: tuple[str, ...],
    output_format: str,
    show_source: bool,
    preview: bool,
    exit_zero: bool,
    quiet: bool,
    statistics: bool,
    no_color: bool,
    no_cache: bool,
    cache_dir: str | None,
    config: str | None,
    isolated: bool,
    output_file: str | None,
    diff_base: str | None,
    force_exclude: bool,
    show_files: bool = False,
    show_settings: bool = False,
    fix: bool = False,
    unsafe_fixes: bool = False,
    fix_only: bool = False,
    diff: bool = False,
    show_fixes: bool = False,
    add_noqa: bool = False,
    jobs: int | None = None,
    stdin_filename: str | None = None,
) -> None:
    """Lint PATHS (files or directories; default: the current directory). Alias: `check`.

    \b
    Suppress a finding with `# noqa: ML001` on its line, rules for a whole file with
    `# memlint: noqa: ML001` on a line of its own (`# memlint: noqa`: every rule).
    `--extend-select ML100` reports suppressions that suppress nothing."""
    if output_format not in formats.names():
        error_line(f"unknown format {output_format!r} (choose from {', '.join(formats.names())})")
        sys.exit(EXIT_ERROR)
    read_stdin = "-" in paths or (stdin_filename is not None and not paths)
    if read_stdin and (fix or fix_only or diff or add_noqa):
        error_line("--fix, --fix-only, --diff and --add-noqa work on files, not on standard input")
        sys.exit(EXIT_ERROR)
    if add_noqa and (fix or fix_only or diff):
        error_line("--add-noqa cannot be combined with --fix, --fix-only or --diff")
        sys.exit(EXIT_ERROR)
    targets = [p for p in paths if p != "-"] or ([] if read_stdin else ["."])
    try:
        settings = _settings(config, select, ignore, extend_select, targets or [stdin_filename or "."], preview, isolated)
    except ConfigError as exc:
        error_line(str(exc))
        sys.exit(EXIT_ERROR)

    found = discover(targets, settings.exclude, settings.root, settings.include)
    for missing in found.missing:
        error_line(f"{missing}: no such file or directory")
    for warning in found.warnings:
        click.echo(f"memlint: warning: {warning}", err=True)
    if force_exclude:
        found.files = [path for path in found.files if not is_excluded(path, settings.exclude, settings.root)]
    if not found.files and not found.missing and not read_stdin:  # ruff's warning; nothing to lint is not an error (exit 0)
        click.echo("memlint: warning: No Python files found under the given path(s)", err=True)
    if show_settings:  # ruff's: the first file linted, else the path as given
        first = sorted(found.files)[0] if found.files else (targets or [stdin_filename or "."])[0]
        for line in settings.describe(first):
            click.echo(line)
        sys.exit(EXIT_ERROR if found.missing else EXIT_CLEAN)
    if show_files:
        for path in sorted(found.files):
            click.echo(path)
        sys.exit(EXIT_ERROR if found.missing else EXIT_CLEAN)
    changed = None
    if diff_base is not None:
        from memlint.gitdiff import GitDiffError, changed_lines

        try:
            first = Path(targets[0])
            changed = changed_lines(diff_base, str(first if first.is_dir() else first.parent))
        except GitDiffError as exc:
            error_line(str(exc))
            sys.exit(EXIT_ERROR)
        found.files = [path for path in found.files if changed.has_file(path)]

    cache = None if no_cache else Cache(cache_dir or str(settings.root / CACHE_DIR), settings.fingerprint())
    fixes = None
    if fix or fix_only or diff:
        from memlint.fixes import fix_files

        fixes = fix_files(
            found.files, settings, cache, unsafe_fixes, write=not diff, fixable=changed.touches if changed else None
        )
        run = RunResult(fixes.findings, fixes.errors, fixes.files)
    else:
        progress = not quiet and "CI" not in os.environ and sys.stderr.isatty()  # silent in CI and pre-commit
        stdin = [_lint_stdin(stdin_filename or "-", settings)] if read_stdin else []
        run = lint_files(found.files, settings, cache, jobs, progress, stdin)
    if changed is not None:  # keep what the change introduced; a file that no longer parses always counts
        run.findings = [f for f in run.findings if f.code in FILE_CODES or changed.touches(f)]
    if add_noqa:
        sys.exit(_add_noqa(run, bool(found.missing)))
    if fixes is not None and (diff or fix_only):
        from memlint.fixes import report_fixes

        exit_code = report_fixes(fixes, diff, show_fixes, quiet, output_format in HUMAN_FORMATS, unsafe_fixes)
    else:
        if fixes is not None:
            from memlint.fixes import report_rejected

            report_rejected(fixes)
        fixed = len(fixes.applied) if fixes is not None else 0
        exit_code = _emit(run, settings, output_format, quiet, statistics, no_color, output_file, fixed, show_source)
        if fixes is not None and show_fixes:
            from memlint.fixes import fix_summary

            for line in fix_summary(fixes.applied):
                click.echo(line, err=output_format not in HUMAN_FORMATS and output_file is None)
        if fixes is not None and not unsafe_fixes and not quiet:
            from memlint.fixes import hidden_fixes

            if hidden := hidden_fixes(run.findings):  # text output says it in its summary; others on stderr
                hint = f"{hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with the `--unsafe-fixes` option."
                if output_format not in HUMAN_FORMATS or output_file is not None:
                    click.echo(f"memlint: {hint}", err=True)
    if run.hidden and not quiet:
        click.echo(
            f"memlint: {run.hidden} more finding{'s rest' if run.hidden > 1 else ' rests'} on guesses about code out of "
            "sight; `--preview` shows them",
            err=True,
        )
    if found.missing:
        exit_code = EXIT_ERROR
    sys.exit(EXIT_CLEAN if exit_zero and exit_code == EXIT_FINDINGS else exit_code)


def _add_noqa(run: RunResult, missing: bool) -> int:
    """`--add-noqa`: suppress what was found; ruff's exit code (0 unless something went wrong)."""
    from memlint.add_noqa import add_noqa_comments
    from memlint.formats import print_errors

    print_errors(run.errors)
    added = add_noqa_comments(run.findings)
    for warning in added.warnings:
        click.echo(f"memlint: warning: {warning}", err=True)
    click.echo(f"Added {added.count} noqa directive{'s' if added.count != 1 else ''}.", err=True)
    return EXIT_ERROR if missing or any(not e.note for e in run.errors) else EXIT_CLEAN


def _lint_stdin(name: str, settings: Settings):
    from memlint.engine import lint_bytes

    return lint_bytes(name, sys.stdin.buffer.read(), settings.codes_for(name))


def _emit(
    run: RunResult,
    settings: Settings,
    output_format: str,
    quiet: bool,
    statistics: bool,
    no_color: bool,
    output_file: str | None,
    fixed: int = 0,
    show_source: bool = False,
) -> int:
    from memlint.formats import print_errors

    print_errors(run.errors)
    stream = open_output(output_file) if output_file else sys.stdout
    try:
        report = formats.Report(
            findings=run.findings,
            errors=run.errors,
            files=run.files,
            color=output_file is None and use_color(no_color),
            quiet=quiet,
            statistics=statistics,
            fixed=fixed,
            show_source=show_source,
            root=str(settings.root),
        )
        formats.get(output_format)(report, stream)
    finally:
        if output_file:
            stream.close()
    if any(not e.note for e in run.errors):  # a note (an analysis stopped by its budget) is a warning
        return EXIT_ERROR
    return EXIT_FINDINGS if run.findings else EXIT_CLEAN


@main.command("rules")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "markdown"]), default="text")
def rules_command(output_format: str) -> None:
    """List every rule."""
    from memlint.rules import ALL_RULES, FILE_PROBLEMS

    if output_format == "json":
        import json

        click.echo(
            json.dumps(
                [
                    {
                        "code": r.code,
                        "name": r.name,
                        "severity": r.severity.value,
                        "summary": r.summary,
                        "fix": r.fix_applicability.value if r.fix_applicability else None,
                    }
                    for r in (*ALL_RULES, *FILE_PROBLEMS)
                ],
                indent=2,
            )
        )
        return
    if output_format == "markdown":
        click.echo(rule_table_markdown())
        return
    width = max(len(r.name) for r in (*ALL_RULES, *FILE_PROBLEMS))
    for r in (*ALL_RULES, *FILE_PROBLEMS):
        fix = r.fix_applicability.value if r.fix_applicability else "-"
        click.echo(f"{r.code}  {r.name:<{width}}  {r.severity.value:<7}  fix: {fix:<12}  {r.summary}")


def rule_table_markdown() -> str:
    from memlint.rules import ALL_RULES, FILE_PROBLEMS

    lines = ["| code | name | severity | fix | what it finds |", "|---|---|---|---|---|"]
    for r in (*ALL_RULES, *FILE_PROBLEMS):
        fix = r.fix_applicability.value if r.fix_applicability else "-"
        lines.append(f"| {r.code} | `{r.name}` | {r.severity.value} | {fix} | {r.summary} |")
    return "\n".join(lines)


@main.command("explain", short_help="Print a rule's documentation (alias: rule).")
@click.argument("rule")
def explain(rule: str) -> None:
    """Print a rule's documentation (by code or name). Alias: `rule`."""
    from memlint.rules import lookup, lookup_file_problem

    found = lookup(rule) or lookup_file_problem(rule)
    if found is None:
        error_line(f"unknown rule {rule!r} (see `memlint rules`)")
        sys.exit(EXIT_ERROR)
    click.echo(found.documentation())


@main.command("server")
def server_command() -> None:
    """Run the language server on stdin/stdout (for editors; needs the `server` extra)."""
    try:
        from memlint.server.app import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        error_line('the language server needs pygls: pip install "memlint-torch[server]"')
        sys.exit(EXIT_ERROR)
    serve()


# `memlint verify`: the one command that runs code (memlint/verify/).
from memlint.verify.cli import verify as _verify_command  # noqa: E402

main.add_command(_verify_command)

# `memlint estimate`: peak GPU memory of a training step on fake tensors (memlint/estimate/).
from memlint.estimate.cli import estimate as _estimate_command  # noqa: E402

main.add_command(_estimate_command)


if __name__ == "__main__":  # pragma: no cover
    main()
