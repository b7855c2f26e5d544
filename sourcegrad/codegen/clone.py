"""Copying ASTs fast: the transformer copies rule expressions and arguments at every
inlining, and ``copy.deepcopy`` (the generic protocol, node by node) was most of the time
spent transforming a function."""

from __future__ import annotations

import ast
import copy
from typing import Any

_SHARED = (str, int, float, complex, bytes, bool, type(None), type(Ellipsis))


def clone(node: Any) -> Any:
    """A deep copy of ``node`` (an AST, a list of them, or a value inside one): every node
    and list is new; immutable values are shared, anything else is deep-copied."""
    if isinstance(node, ast.AST):
        new = node.__class__.__new__(node.__class__)
        new.__dict__.update({k: clone(v) for k, v in node.__dict__.items()})
        return new
    if isinstance(node, list):
        return [clone(item) for item in node]
    if isinstance(node, _SHARED):
        return node
    return copy.deepcopy(node)
