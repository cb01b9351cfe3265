"""`--format sarif`: SARIF 2.1.0 for GitHub code scanning (`github/codeql-action/upload-sarif`).

One run; `tool.driver.rules` lists every rule (ML000 and ML900 included) with its
documentation as help; each result points at a repository-relative URI under
`%SRCROOT%` and carries a `partialFingerprints` entry that does not depend on
line numbers, so an alert keeps its identity when unrelated lines move.

A finding in a notebook points at the `.ipynb` file, at the line of its JSON
that holds the flagged cell line, and its message starts with
`cell N, line L, column C: ` (formats/common.py `Sources.cell_prefix`). No
columns and no fix: those of the cell are not those of the JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from memlint import __version__
from memlint.formats.report import Report
from memlint.formats.common import (
    FINGERPRINT_KEY,
    INFORMATION_URI,
    TOOL_NAME,
    Sources,
    fingerprints,
    message_with_hint,
    relative_path,
    repository_root,
    rule_help_uri,
)
from memlint.models import Applicability, Finding, Fix, Position, Severity

SCHEMA_URI = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"


def level(severity: Severity) -> str:
    return "error" if severity is Severity.ERROR else "warning"


def rule_descriptors() -> list[dict[str, Any]]:
    from memlint.rules import ALL_RULES, FILE_PROBLEMS  # the rule classes: only when a SARIF report is written

    descriptors = [
        {
            "id": problem.code,
            "name": problem.name,
            "shortDescription": {"text": problem.summary},
            "fullDescription": {"text": problem.what},
            "help": {"text": problem.documentation(), "markdown": problem.documentation()},
            "helpUri": rule_help_uri(problem.code),
            "defaultConfiguration": {"level": "error"},
            "properties": {"tags": ["correctness"]},
        }
        for problem in FILE_PROBLEMS
    ]
    for rule in ALL_RULES:
        documentation = rule.documentation()
        descriptors.append(
            {
                "id": rule.code,
                "name": rule.name,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": " ".join(rule.what.split())},
                "help": {"text": documentation, "markdown": documentation},
                "helpUri": rule_help_uri(rule.code),
                "defaultConfiguration": {"level": level(rule.severity)},
                "properties": {"tags": ["pytorch", "memory"]},
            }
        )
    return descriptors


def _artifact(filename: str, base: Path) -> dict[str, Any]:
    relative = relative_path(filename, base)
    if Path(relative).is_absolute():
        return {"uri": Path(relative).as_uri()}
    return {"uri": quote(relative, safe="/"), "uriBaseId": SRCROOT}


def _region(start: Position, end: Position) -> dict[str, int]:
    if end < start:
        end = start
    return {"startLine": start.row, "startColumn": start.column, "endLine": end.row, "endColumn": end.column}


def _fix(fix: Fix, artifact: dict[str, Any]) -> dict[str, Any]:
    description = fix.message if fix.applicability is Applicability.SAFE else f"{fix.message} ({fix.applicability.value} fix)"
    return {
        "description": {"text": description},
        "artifactChanges": [
            {
                "artifactLocation": artifact,
                "replacements": [
                    {"deletedRegion": _region(edit.start, edit.end), "insertedContent": {"text": edit.content}}
                    for edit in fix.edits
                ],
            }
        ],
    }


def sarif_log(report: Report) -> dict[str, Any]:
    base = repository_root(report.root)
    rules = rule_descriptors()
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    findings: list[Finding] = sorted(report.findings, key=Finding.sort_key)
    sources = Sources()
    prints = fingerprints(findings, base, sources)
    results = []
    for finding, fingerprint in zip(findings, prints):
        artifact = _artifact(finding.filename, base)
        prefix = sources.cell_prefix(finding)
        if prefix:  # a notebook: the lines of the .ipynb file that hold the cell's lines, no columns
            first, last = sources.file_rows(finding)
            region = {"startLine": first, "endLine": last}
        else:
            region = _region(finding.location, finding.end_location)
        result: dict[str, Any] = {
            "ruleId": finding.code,
            "level": level(finding.severity),
            "message": {"text": prefix + message_with_hint(finding)},
            "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": region}}],
            "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        }
        if finding.code in index:
            result["ruleIndex"] = index[finding.code]
        if finding.fix and finding.fix.edits and not prefix:  # a notebook's edits are not edits of its JSON
            result["fixes"] = [_fix(finding.fix, artifact)]
        results.append(result)

    notifications = [
        {
            "level": "error",
            "message": {"text": error.message},
            "locations": [{"physicalLocation": {"artifactLocation": _artifact(error.filename, base)}}],
        }
        for error in report.errors
    ]
    invocation: dict[str, Any] = {"executionSuccessful": not any(e.internal for e in report.errors)}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL_NAME,
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": base.as_uri().rstrip("/") + "/"}},
                "columnKind": "unicodeCodePoints",
                "invocations": [invocation],
                "results": results,
            }
        ],
    }


def write(report: Report, stream: TextIO) -> None:
    json.dump(sarif_log(report), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
