"""Copying ASTs fast: the transformer copies rule expressions and arguments at every
inlining, and ``copy.deepcopy`` (the generic protocol, node by node) was most of the time
spent transforming a function.

A copy holds only what the node's class declares (``_fields`` and ``_attributes``), never
anything else stored on a node: CPython shares one ``Load()``, ``Store()``, ``Add()``... node
between every tree ``ast.parse`` returns, and tools that annotate the trees they parse
(IPython's traceback display sets a ``parent`` link on every node) thereby annotate
sourcegrad's trees too. Following such a link copied the tool's whole tree, or never ended.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

_SHARED = (str, int, float, complex, bytes, bool, type(None), type(Ellipsis))
_SHARED_TYPES = frozenset(_SHARED)
_DECLARED: dict[type, frozenset[str]] = {}


def declared(cls: type) -> frozenset[str]:
    """The names an AST node class declares: its fields and its location attributes."""
    names = _DECLARED.get(cls)
    if names is None:
        names = _DECLARED[cls] = frozenset((*cls._fields, *cls._attributes))
    return names


def clone(node: Any) -> Any:
    """A deep copy of ``node`` (an AST, a list of them, or a value inside one): every node
    and list is new; immutable values are shared, anything else is deep-copied."""
    if isinstance(node, ast.AST):
        cls = node.__class__
        keep = _DECLARED.get(cls) or declared(cls)
        new = cls.__new__(cls)
        new.__dict__.update({k: v if v.__class__ in _SHARED_TYPES else clone(v)
                             for k, v in node.__dict__.items() if k in keep})
        return new
    if isinstance(node, list):
        return [clone(item) for item in node]
    if isinstance(node, _SHARED):
        return node
    return copy.deepcopy(node)


def clone_replacing(node: Any, replacements: dict[int, Any]) -> Any:
    """``clone(node)`` with each node whose ``id`` is a key of ``replacements`` replaced by a
    clone of its value (the replaced node's own children are not visited)."""
    if id(node) in replacements:
        return clone(replacements[id(node)])
    if isinstance(node, ast.AST):
        keep = declared(node.__class__)
        new = node.__class__.__new__(node.__class__)
        new.__dict__.update({k: clone_replacing(v, replacements)
                             for k, v in node.__dict__.items() if k in keep})
        return new
    if isinstance(node, list):
        return [clone_replacing(item, replacements) for item in node]
    return clone(node)
