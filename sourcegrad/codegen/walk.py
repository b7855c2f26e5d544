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
        # a node's fields are in its ``__dict__`` (an optional one left out reads as None,
        # as its class's default does): a dict lookup is cheaper than ``getattr``
        held = current.__dict__
        for name in current._fields:
            value = held.get(name)
            if value.__class__ is list:
                todo.extend([item for item in value if isinstance(item, _AST)])
            elif isinstance(value, _AST):
                todo.append(value)
        yield current


# fields that never hold a name (operators, contexts, identifiers and flags): not visited
_NAMELESS_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "arg", "module", "level",
                              "kind", "type_comment", "is_async", "conversion", "simple"})
_NAME = object()  # marks a class of ``Name`` nodes in ``_FIELDS_WITH_NAMES``
_FIELDS_WITH_NAMES: dict[type, object] = {ast.Constant: ()}


def _fields_with_names(cls: type) -> object:
    if issubclass(cls, ast.Name):
        fields: object = _NAME
    elif issubclass(cls, _AST):
        fields = tuple(name for name in cls._fields if name not in _NAMELESS_FIELDS)
    else:  # what else a list in a tree holds (a `global`'s names, a dict's `**` key: None)
        fields = ()
    _FIELDS_WITH_NAMES[cls] = fields
    return fields


def fields_with_names(cls: type) -> tuple[str, ...]:
    """The fields of a node of class ``cls`` that may hold a ``Name`` (none for a ``Name``
    itself, a constant, or what is not a node), for walks that look at names only."""
    fields = _FIELDS_WITH_NAMES.get(cls)
    if fields is None:
        fields = _fields_with_names(cls)
    return () if fields is _NAME else fields  # type: ignore[return-value]


def names_in(node: ast.AST) -> Iterator[ast.Name]:
    """The ``Name`` nodes under ``node`` (itself included), in ``walk``'s order, without
    visiting what cannot hold a name (contexts, operators, constants). The passes call it
    on every statement several times: it is the transformer's innermost loop."""
    todo = [node]
    known = _FIELDS_WITH_NAMES
    for current in todo:
        fields = known.get(current.__class__)
        if fields is None:
            fields = _fields_with_names(current.__class__)
        if fields is _NAME:
            yield current
            continue
        # `walk`'s loop, repeated: a shared helper would cost a call per node (and lists
        # are queued whole: what in them is not a node has no fields)
        if not fields:  # (a constant, or what is not a node: a `global`'s name, None)
            continue
        held = current.__dict__
        for name in fields:
            value = held.get(name)
            if value.__class__ is list:
                todo.extend(value)
            elif isinstance(value, _AST):
                todo.append(value)


def nodes_with_names(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes under ``node`` (itself included) that are or hold a ``Name``, and only
    through the fields that may hold one, in ``walk``'s order: ``walk`` for passes that
    look only at what reads or binds names, without contexts, operators and constants."""
    todo = [node]
    known = _FIELDS_WITH_NAMES
    for current in todo:
        fields = known.get(current.__class__)
        if fields is None:
            fields = _fields_with_names(current.__class__)
        if fields is _NAME:
            yield current
            continue
        if not fields:
            continue
        yield current
        held = current.__dict__
        for name in fields:
            value = held.get(name)
            if value.__class__ is list:
                todo.extend(value)
            elif isinstance(value, _AST):
                todo.append(value)


_BLOCK_PARTS = (ast.stmt, ast.excepthandler, ast.match_case)
# the statements that hold others
_COMPOUND = tuple(cls for cls in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For,
                                  ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith,
                                  ast.Try, getattr(ast, "TryStar", None), ast.Match)
                  if cls is not None)
_HOLDERS = (*_COMPOUND, ast.excepthandler, ast.match_case)  # what holds statements


def statements(node: ast.AST, into_functions: bool = True) -> Iterator[ast.AST]:
    """``node`` and the statements nested in it (with the handlers and match cases that hold
    them), depth first in source order; expressions are not entered. Without
    ``into_functions``, the bodies of nested ``def``s are left out."""
    yield node
    for part in node._fields:
        value = getattr(node, part, None)
        if isinstance(value, list):
            for child in value:
                if not isinstance(child, _BLOCK_PARTS):
                    continue
                if not isinstance(child, _HOLDERS):  # (a simple statement: no generator)
                    yield child
                elif into_functions or not isinstance(child, ast.FunctionDef):
                    yield from statements(child, into_functions)


def blocks(fdef: ast.FunctionDef) -> list[list[ast.stmt]]:
    """Every block of statements in ``fdef``: its body, then those of its compound
    statements in source order (found through the statements alone: no block is inside an
    expression)."""
    found = [fdef.body]
    for node in statements(fdef):
        if node is fdef:
            continue
        for part in ("body", "orelse"):
            block = getattr(node, part, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                found.append(block)
    return found


def name_counts(stmts: list[ast.stmt], in_place_reads: int = 0,
                only: set[str] | None = None, names: list[list[ast.Name]] | None = None
                ) -> tuple[dict[str, int], dict[str, int]]:
    """How often each name is read and how often stored (or deleted) in ``stmts``; the
    target of ``x += v`` also counts ``in_place_reads`` reads (passes that fold or move a
    single-use value count it as more than one). With ``only``, those names alone are
    counted (a pass that asks about a few names need not count them all). ``names``: the
    ``Name`` nodes of each statement, if the caller listed them already."""
    loads: dict[str, int] = {}
    stores: dict[str, int] = {}
    for i, stmt in enumerate(stmts):
        for node in names[i] if names is not None else names_in(stmt):
            if only is not None and node.id not in only:
                continue
            counts = loads if isinstance(node.ctx, ast.Load) else stores
            counts[node.id] = counts.get(node.id, 0) + 1
        if in_place_reads:  # (a simple statement holds no other: no walk for it)
            for node in statements(stmt) if isinstance(stmt, _COMPOUND) else (stmt,):
                if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and (
                        only is None or node.target.id in only):
                    loads[node.target.id] = loads.get(node.target.id, 0) + in_place_reads
    return loads, stores
