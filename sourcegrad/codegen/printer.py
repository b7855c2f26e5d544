"""Print generated ASTs as source: astor for the code, plus provenance comments.

A provenance comment is a statement ``Expr(Constant(COMMENT_MARK + text))`` in the AST; the
printer turns each into ``# text`` on its own line, so the passes can place comments exactly
where the code they describe begins.
"""

from __future__ import annotations

import ast
import re

import astor

COMMENT_MARK = "\x00#"
_COMMENT_LINE = re.compile(r"^(\s*)(['\"].*['\"])\s*$")


def comment(text: str) -> ast.stmt:
    return ast.Expr(value=ast.Constant(COMMENT_MARK + text))


def to_source(node: ast.AST) -> str:
    """Readable source for ``node`` with comments restored and a blank line before each
    top-level comment that starts a new step."""
    text = astor.to_source(node, indent_with=" " * 4, pretty_source="".join)
    lines = []
    for line in text.splitlines():
        match = _COMMENT_LINE.match(line)
        if match:
            try:
                value = ast.literal_eval(match.group(2))
            except (ValueError, SyntaxError):
                value = None
            if isinstance(value, str) and value.startswith(COMMENT_MARK):
                lines.append(f"{match.group(1)}# {value[len(COMMENT_MARK):]}")
                continue
        lines.append(line)
    return "\n".join(lines) + "\n"


def is_comment(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(
        stmt.value.value, str) and stmt.value.value.startswith(COMMENT_MARK)
