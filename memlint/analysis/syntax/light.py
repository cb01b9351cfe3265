"""STAND-IN (lead's branch only, replaced by the translator): a full LibCST parse with PositionProvider spans."""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from memlint.analysis.syntax.positions import statement_lines


@dataclass
class LightModule:
    module: cst.Module
    spans: dict[int, tuple[int, int, int, int]]
    statement_lines: dict[int, int]


def light_module(tree: ast.Module, text: str) -> LightModule | None:
    wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    spans = {id(n): (r.start.line, r.start.column, r.end.line, r.end.column) for n, r in positions.items()}
    return LightModule(wrapper.module, spans, statement_lines(wrapper.module))
