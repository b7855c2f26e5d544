"""Print generated ASTs as source: astor for the code, plus provenance comments.

A provenance comment is a statement ``Expr(Constant(COMMENT_MARK + text))`` in the AST; the
printer writes each as ``# text`` on its own line, so the passes can place comments exactly
where the code they describe begins.
"""

from __future__ import annotations

import ast

import astor
from astor.code_gen import SourceGenerator

from .wrap import wrap

COMMENT_MARK = "\x00#"


def comment(text: str) -> ast.stmt:
    return ast.Expr(value=ast.Constant(COMMENT_MARK + text))


def is_comment(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(
        stmt.value.value, str) and stmt.value.value.startswith(COMMENT_MARK)


class _WithComments(SourceGenerator):
    """astor's generator, writing provenance comments as comments (and without running
    them through astor's string pretty-printer, which compiles every string it prints)."""

    _visitors: dict[type, object] = {}  # node class -> its visit_ method (all instances)

    def visit(self, node: ast.AST, abort: object = None) -> object:
        """astor's ``visit`` without building the method's name and looking it up for every
        node (a printer visits each node of a long function)."""
        try:
            method = self._visitors[node.__class__]
        except KeyError:
            method = getattr(type(self), "visit_" + node.__class__.__name__, None)
            if method is None:  # astor's own error
                return super().visit(node)
            self._visitors[node.__class__] = method
        return method(self, node)  # type: ignore[operator]

    def visit_Expr(self, node: ast.Expr) -> None:
        if is_comment(node):
            self.statement(node, "# " + node.value.value[len(COMMENT_MARK):])
            return
        super().visit_Expr(node)


def to_source(node: ast.AST) -> str:
    """Readable source for ``node``, comments included, within 100 columns."""
    text = astor.to_source(node, indent_with=" " * 4, pretty_source="".join,
                           source_generator_class=_WithComments)
    return wrap(text.rstrip("\n")) + "\n"
