"""MkDocs hook: the rule pages, generated at build time from the rules' own documentation.

Each rule's page is the text `memlint explain CODE` prints (What it does / Why is this bad? /
Example / Use instead), so the site cannot drift from the code. The page of rule NAME is
`rules/NAME.md`, served at `rules/NAME/`: the address SARIF's `helpUri` and the language
server's `codeDescription` give (memlint.formats.common.rule_help_uri).
"""

from __future__ import annotations

from typing import Any

RULES_SECTION = "Rules"  # the nav entry under which the rule pages are listed
INDEX = "rules/index.md"


def _rules() -> list[Any]:
    from memlint.rules import ALL_RULES, FILE_PROBLEMS

    return [*ALL_RULES, *FILE_PROBLEMS]


def page_path(name: str) -> str:
    return f"rules/{name}.md"


def rule_page(rule: Any) -> str:
    """A rule's page: its documentation, then how to select and silence it."""
    return (
        f"{rule.documentation().rstrip()}\n\n"
        "## Selecting and suppressing\n\n"
        f"Select it with `--select {rule.code}` (or `{rule.name}`), turn it off with "
        f"`--ignore {rule.code}` or `ignore = [\"{rule.code}\"]` in `[tool.memlint]`, and silence one "
        f"line with `# noqa: {rule.code}`. `memlint explain {rule.code}` prints this page in a terminal.\n"
    )


def index_page() -> str:
    """The rules table, each name linking to its page."""
    lines = [
        "# Rules\n",
        "Every rule memlint has, with its code, its default severity and the kind of fix it offers "
        "(*safe*: applied by `--fix`; *unsafe*: applied with `--unsafe-fixes`; *display-only*: advice). "
        "`memlint rules` prints this table and `memlint explain CODE` a rule's page.\n",
        "| code | name | severity | fix | what it finds |",
        "|---|---|---|---|---|",
    ]
    for rule in _rules():
        fix = rule.fix_applicability.value if rule.fix_applicability else "-"
        lines.append(f"| {rule.code} | [`{rule.name}`]({rule.name}.md) | {rule.severity.value} | {fix} | {rule.summary} |")
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """Every generated page, by its path under docs/."""
    return {INDEX: index_page(), **{page_path(rule.name): rule_page(rule) for rule in _rules()}}


def nav_entries() -> list[Any]:
    return [INDEX, *({f"{rule.code} {rule.name}": page_path(rule.name)} for rule in _rules())]


def on_config(config: Any) -> Any:
    """List the rule pages under the nav's `Rules` entry (mkdocs.yml names only the section)."""
    for position, entry in enumerate(config["nav"] or []):
        if isinstance(entry, dict) and RULES_SECTION in entry:
            config["nav"][position] = {RULES_SECTION: nav_entries()}
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for path, content in pages().items():
        files.append(File.generated(config, path, content=content))
    return files
