"""Folding what generated code knows statically about tangents.

A user JVP rule receives a tuple of tangents with ``None`` where a tangent is zero; inlined
into forward-mode code that tuple is a literal, so ``tangents[1] is None`` is known.
"""

from __future__ import annotations

import ast

from .inline import fold


def fold_known(expr: ast.expr, present: frozenset[str] = frozenset()) -> ast.expr:
    """Fold ``(a, b)[0]`` -> ``a``, ``None is None`` -> ``True``, ``tangent_x is None`` ->
    ``False`` for the names in ``present`` (tangents known to exist), ``a if True else b`` ->
    ``a``, then the arithmetic ``inline.fold`` folds."""
    return fold(_FoldKnown(present).visit(expr))


class _FoldKnown(ast.NodeTransformer):
    def __init__(self, present: frozenset[str]) -> None:
        self.present = present

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.value, ast.Tuple) and isinstance(node.slice, ast.Constant) and (
            isinstance(node.slice.value, int) and -len(node.value.elts) <= node.slice.value
            < len(node.value.elts)
        ):
            return node.value.elts[node.slice.value]
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            return node
        right = node.comparators[0]
        if not (isinstance(right, ast.Constant) and right.value is None):
            return node
        left = node.left
        if isinstance(left, ast.Constant) and left.value is None:
            known = True
        elif isinstance(left, ast.Name) and left.id in self.present:
            known = False
        else:
            return node
        return ast.Constant(known if isinstance(node.ops[0], ast.Is) else not known)

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant) and isinstance(node.test.value, bool):
            return node.body if node.test.value else node.orelse
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Constant) and (
            isinstance(node.operand.value, bool)
        ):
            return ast.Constant(not node.operand.value)
        return node
