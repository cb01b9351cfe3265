"""The user documentation (README.md and docs/) says what the code does.

Every rule has its page, at the address SARIF and the language server link to; the README stays
short and its test command is the one CI runs; and every cheap command the documentation shows
in a shell block runs and exits as documented. (`mkdocs build --strict` itself runs in CI,
.ci/run, with the `docs` extra.)
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import click
import pytest
import yaml

from memlint.cli import main
from memlint.formats.common import DOCUMENTATION_URL, rule_help_uri
from memlint.rules import documentation
from memlint.rules.catalog import FILE_CODES, RULES, SYNTAX_ERROR, UNREADABLE, UNUSED_NOQA

if sys.version_info >= (3, 11):
    import tomllib
else:  # the project's own dependency on 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
USER_DOCS = [REPO / "README.md", *sorted(DOCS.glob("*.md"))]
EXAMPLE = REPO / "examples" / "quickstart.py"

# Documented commands that this test does not run, each with the reason.
SKIPPED_PREFIXES = {
    "pip ": "installs packages",
    "git clone": "needs the network",
    "cd ": "changes the shell's directory",
    "python -m pytest": "the test suite itself",
    "mkdocs ": "runs in CI (.ci/run), with the docs extra",
    "pre-commit ": "tests/test_precommit.py runs the hooks",
    "memlint verify": "runs training scripts (torch; a GPU for the documented figures)",
    "memlint estimate": "runs a training step on fake tensors (torch)",
    "memlint server": "a language server, waits for a client (tests/test_server.py drives it)",
    "memlint --diff-base": "needs a git history with a merge base",
    "code ": "VS Code's command line (not on the test machine)",
    "npm ": "builds the VS Code extension: tests/test_vscode_extension.py runs it",
    "npx ": "builds the VS Code extension: tests/test_vscode_extension.py runs it",
}


def _rule_pages_hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rule_pages", DOCS / "hooks" / "rule_pages.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_rule_has_its_page_at_the_linked_address() -> None:
    hook = _rule_pages_hook()
    pages = hook.pages()
    codes = [(code, name) for code, name, *_ in RULES] + [SYNTAX_ERROR, UNREADABLE, UNUSED_NOQA]
    assert {code for code, _ in codes} >= FILE_CODES
    for code, name in codes:
        page = pages[f"rules/{name}.md"]
        text = documentation(code)
        assert text and page.startswith(text.rstrip()), code  # the page is the rule's own documentation
        for heading in ("## What it does", "## Why is this bad?", "## Use instead"):
            assert heading in page, (code, heading)
        # mkdocs serves rules/NAME.md at rules/NAME/: the address of SARIF's helpUri and LSP's codeDescription
        assert rule_help_uri(code) == f"{DOCUMENTATION_URL}rules/{name}/"
    assert set(pages) == {"rules/index.md", *(f"rules/{name}.md" for _, name in codes)}
    for _, name in codes:
        assert f"]({name}.md)" in pages["rules/index.md"]


def test_the_rule_pages_are_in_the_navigation() -> None:
    hook = _rule_pages_hook()
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    assert "docs/hooks/rule_pages.py" in config["hooks"]
    config = hook.on_config(config)
    [section] = [entry[hook.RULES_SECTION] for entry in config["nav"] if hook.RULES_SECTION in entry]
    listed = {next(iter(entry.values())) for entry in section if isinstance(entry, dict)}
    assert listed == {f"rules/{name}.md" for _, name, *_ in RULES} | {
        f"rules/{SYNTAX_ERROR[1]}.md", f"rules/{UNREADABLE[1]}.md", f"rules/{UNUSED_NOQA[1]}.md"
    }


def test_readme_is_short_and_ci_runs_its_test_command_verbatim() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    marker = ci.index("# --- the README's test command, verbatim ---")
    command = ci[marker + 1]
    assert "python -m pytest" in command
    assert f"```bash\n{command}\n```" in readme


def test_user_docs_name_no_issue_numbers_and_no_internal_modules() -> None:
    for path in USER_DOCS:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\b[Ii]ssue \d+", text), path.name
        assert not re.search(r"(?<![\w./-])memlint/[a-z_]+(?:/[a-z_]+)*\.py", text), path.name
        assert not re.search(r"(?<![\w./-])(?:analysis|server|verify|estimate|formats|rules)/[a-z_]+\.py", text), path.name


def test_every_command_option_and_extra_is_documented() -> None:
    """What a user can type: each command (`memlint NAME`), each of its long options, and each
    extra of pyproject.toml (with its install command on the installation page)."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in USER_DOCS)
    missing = []
    for name, command in main.commands.items():
        if f"memlint {name}" not in text:
            missing.append(f"memlint {name}")
        for param in command.params:
            if isinstance(param, click.Option):
                missing += [f"{name} {opt}" for opt in param.opts if opt.startswith("--") and not re.search(re.escape(opt) + r"(?![\w-])", text)]
    assert missing == []
    install = (DOCS / "install.md").read_text(encoding="utf-8")
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert [extra for extra in extras if f"| `{extra}` |" not in install] == []


def _shell_commands(path: Path) -> list[str]:
    """The commands of the shell blocks of a Markdown file: one a line, comments dropped, each
    `a && b` split into its parts."""
    text = path.read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```(?:bash|sh|shell)\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line and not line.startswith("#"):
                commands.extend(part.strip() for part in line.split("&&"))
    return commands


def _documented_commands() -> list[tuple[str, str]]:
    return [(path.name, command) for path in USER_DOCS for command in _shell_commands(path)]


def _skip_reason(command: str) -> str | None:
    return next((reason for prefix, reason in SKIPPED_PREFIXES.items() if command.startswith(prefix)), None)


def _runnable_commands() -> list[str]:
    """Each documented command this test runs, once (several pages show some of them)."""
    return sorted({command for _, command in _documented_commands() if _skip_reason(command) is None})


def test_every_documented_command_is_run_or_skipped_for_a_stated_reason() -> None:
    """The extraction finds the quickstart, lint, fix, rules and explain commands (so an empty
    parametrization cannot pass by itself), and no command is dropped without a reason."""
    commands = _runnable_commands()
    assert "memlint --exit-zero examples/quickstart.py" in commands
    assert {"memlint rules", "memlint explain ML001", "memlint explain retained-graph"} <= set(commands)
    assert any(command.startswith("memlint --fix ") for command in commands)
    unknown = [f"{page}: {command}" for page, command in _documented_commands()
               if _skip_reason(command) is None and not command.startswith("memlint ")]
    assert unknown == []


def _expected_exit(args: list[str]) -> int:
    """What the documentation says the command exits with: the bundled examples hold findings,
    so a lint exits 1 (a diff that changes something too) unless `--exit-zero`; listing and
    explaining rules exit 0."""
    if args[:1] in (["rules"], ["explain"]) or "--exit-zero" in args or "--show-files" in args:
        return 0
    return 1


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    """The bundled example where the commands expect it, and as the `src/` that the fix
    commands name; a copy, since some of them write fixes."""
    (tmp_path / "examples").mkdir()
    shutil.copy(EXAMPLE, tmp_path / "examples" / EXAMPLE.name)
    (tmp_path / "src").mkdir()
    shutil.copy(EXAMPLE, tmp_path / "src" / "train.py")
    return tmp_path


@pytest.mark.parametrize("command", _runnable_commands())
def test_documented_command_runs_as_documented(command: str, sandbox: Path) -> None:
    args = shlex.split(command)[1:]
    done = subprocess.run(
        [sys.executable, "-m", "memlint", *args],
        cwd=sandbox, env={**os.environ, "NO_COLOR": "1"}, capture_output=True, text=True, timeout=300,
    )
    output = done.stdout + done.stderr
    assert "Traceback" not in output, output
    assert done.returncode == _expected_exit(args), f"{command}\n{output}"
    if args[:1] not in (["rules"], ["explain"]):
        assert re.search(r"ML0\d\d|quickstart\.py", output), output  # it linted the example


def test_readme_example_output_is_what_memlint_prints() -> None:
    """The locations and codes the README shows for the example are the ones memlint reports."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```text\n\$ memlint examples/quickstart.py\n(.*?)```", readme, re.S)
    assert block, "the README shows no output of the example"
    shown = re.findall(r"^(examples/quickstart\.py:\d+:\d+: ML\d{3})", block.group(1), re.M)
    done = subprocess.run(
        [sys.executable, "-m", "memlint", "--no-cache", "--output-format", "concise", "examples/quickstart.py"],
        cwd=REPO, env={**os.environ, "NO_COLOR": "1"}, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 1, done.stderr
    reported = re.findall(r"^(examples/quickstart\.py:\d+:\d+: ML\d{3})", done.stdout, re.M)
    assert shown and shown == reported
    assert len(done.stdout.splitlines()) <= 10  # a screenful
