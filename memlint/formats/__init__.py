"""Output formats. Each module registers `write(report, stream)` under its name.

`Report` (in `report`) carries everything a formatter may need; adding a format is one
module plus one line in `FORMATS`.
"""

from __future__ import annotations

from typing import Callable, Iterable, TextIO

from memlint.formats.report import Report
from memlint.models import FileError


Formatter = Callable[[Report, TextIO], None]


def _registry() -> dict[str, Formatter]:
    from memlint.formats import github, gitlab, json_format, rdjson, sarif, text

    return {
        "text": text.write,
        "concise": lambda report, stream: text.write(report, stream, concise=True),
        "json": json_format.write,
        "github": github.write,
        "sarif": sarif.write,
        "gitlab": gitlab.write,
        "rdjson": rdjson.write,
    }


FORMATS: dict[str, Formatter] = {}


def get(name: str) -> Formatter:
    if not FORMATS:
        FORMATS.update(_registry())
    return FORMATS[name]


def names() -> list[str]:
    if not FORMATS:
        FORMATS.update(_registry())
    return list(FORMATS)


def print_errors(errors: Iterable[FileError]) -> None:
    """One line on stderr per file that could not be linted (or fixed)."""
    import click

    for error in errors:
        kind = "warning" if error.note else "internal error" if error.internal else "error"
        message = error.message
        if error.internal and message.startswith("internal error"):
            message = message[len("internal error") :].lstrip(": ")
        click.echo(f"memlint: {kind}: {error.filename}: {message}", err=True)
