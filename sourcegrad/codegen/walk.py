"""Walking ASTs fast: the passes walk every statement several times, and ``ast.walk`` (two
generator layers per node and an import per call) was the largest single cost of
transforming a function."""

from __future__ import annotations

import ast
from collections.abc import Iterator

_AST = ast.AST


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node`` (itself included) in ``ast.walk``'s order, breadth first,
    children in field order. As in ``ast.walk``, a node's children are read just before the
    node is yielded, so a caller may rewrite the parts of the tree not reached yet."""
    todo = [node]
    for current in todo:
        for name in current._fields:
            value = getattr(current, name, None)
            if isinstance(value, list):
                todo.extend([item for item in value if isinstance(item, _AST)])
            elif isinstance(value, _AST):
                todo.append(value)
        yield current
