"""Nested structures of arrays ("pytrees"): lists, tuples, dicts, namedtuples and dataclasses
whose leaves are arrays and numbers (CONTRACT 1a).

Generated code handles structures itself; this module serves what runs around it:
``sg.tree_map`` / ``sg.tree_leaves`` (a parameter update over a list of dicts is
``sg.tree_map(lambda p, g: p - lr * g, params, grads)``), tangents and cotangents handed to
generated code (a namedtuple's becomes the dict of fields generated code indexes), and the
Jacobians and Hessians of functions of structures, one block per pair of leaves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .rules.support import Fields, is_float_leaf, rebuild_record, record_fields
from .rules.support import _grad_dtype as grad_dtype

Tree = Any


def _children(tree: Tree) -> list[tuple[Any, Any]] | None:
    """``(key, child)`` pairs of a structure, ``None`` for a leaf."""
    fields = record_fields(tree)
    if fields is not None:
        return list(fields.items())
    if isinstance(tree, dict):
        return list(dict.items(tree))
    if isinstance(tree, (list, tuple)):
        return list(enumerate(tree))
    return None


def _rebuild(tree: Tree, values: list[Any]) -> Tree:
    """A structure like ``tree`` (same type, same keys) holding ``values``."""
    fields = record_fields(tree)
    if fields is not None:
        return rebuild_record(tree, dict(zip(fields, values, strict=True)))
    if isinstance(tree, dict):
        return type(tree)(zip(dict.keys(tree), values, strict=True))
    if type(tree) in (list, tuple):
        return type(tree)(values)
    return type(tree)(*values)


def is_leaf(tree: Tree) -> bool:
    return _children(tree) is None


def tree_map(fn: Callable[..., Any], tree: Tree, *rest: Tree) -> Tree:
    """``fn`` applied to each leaf of ``tree`` and the leaves at the same place in ``rest``
    (``None`` where one of them has ``None`` instead of a subtree), rebuilt in ``tree``'s
    structure and types.

    >>> params = {"w": np.array([1.0, 2.0]), "b": 3.0}
    >>> grads = {"w": np.array([10.0, 20.0]), "b": 30.0}
    >>> sg.tree_map(lambda p, g: p - 0.1 * g, params, grads)
    {'w': array([0., 0.]), 'b': 0.0}
    """
    children = _children(tree)
    if children is None:
        return fn(tree, *rest)
    values = []
    for key, child in children:
        others = [_child(other, key) for other in rest]
        values.append(tree_map(fn, child, *others))
    return _rebuild(tree, values)


def _child(tree: Tree, key: Any) -> Any:
    if tree is None:
        return None
    if isinstance(tree, dict):
        return dict.get(tree, key)
    if isinstance(key, str):
        return getattr(tree, key)
    return tree[key]


def tree_leaves(tree: Tree) -> list[Any]:
    """The leaves of ``tree``, depth first, in its keys' order.

    >>> sg.tree_leaves({"w": [np.array([1.0]), 2.0], "b": (3.0,)})
    [array([1.]), 2.0, 3.0]
    """
    children = _children(tree)
    if children is None:
        return [tree]
    return [leaf for _, child in children for leaf in tree_leaves(child)]


def tree_unflatten_like(tree: Tree, leaves: list[Any]) -> Tree:
    """``tree``'s structure holding ``leaves`` (in ``tree_leaves``' order)."""
    feed = iter(leaves)
    return tree_map(lambda _: next(feed), tree)


def as_fields(tree: Tree) -> Tree:
    """A tangent or cotangent as generated code indexes it: each namedtuple or dataclass a
    dict of its fields (``Fields``)."""
    fields = record_fields(tree)
    if fields is not None:
        return Fields({k: as_fields(v) for k, v in fields.items()})
    if isinstance(tree, dict):
        return type(tree)({k: as_fields(v) for k, v in dict.items(tree)})
    if type(tree) in (list, tuple):
        return type(tree)(as_fields(v) for v in tree)
    return tree


def has_records(tree: Tree) -> bool:
    if record_fields(tree) is not None:
        return True
    children = _children(tree)
    return children is not None and any(has_records(c) for _, c in children)


# -- Jacobians of functions of structures ---------------------------------------------------
def _zeros_tangent(tree: Tree) -> Tree:
    return tree_map(lambda leaf: np.zeros_like(leaf, dtype=grad_dtype(leaf))
                    if is_float_leaf(leaf) else None, tree)


def _unit_tangents(tree: Tree):
    """``(leaf index, element index, tangent)``: one unit tangent per element of each float
    leaf, zeros elsewhere (``None`` at the other leaves), each of its leaf's dtype."""
    leaves = tree_leaves(tree)
    for k, leaf in enumerate(leaves):
        if not is_float_leaf(leaf):
            continue
        for index in np.ndindex(np.shape(leaf)):
            units = [np.zeros_like(x, dtype=grad_dtype(x)) if is_float_leaf(x) else None
                     for x in leaves]
            unit = np.zeros(np.shape(leaf), dtype=grad_dtype(leaf))
            unit[index] = 1.0
            units[k] = float(unit) if isinstance(leaf, float) else unit
            yield k, index, tree_unflatten_like(tree, units)


def jacobian_by_tangents(tangent_out: Callable[[Tree], Tree], arg: Tree, out: Tree) -> Tree:
    """The Jacobian of a function of the structure ``arg`` whose value is ``out``, from its
    tangent along each unit tangent: ``out``'s structure, each leaf holding ``arg``'s
    structure of blocks ``out_leaf.shape + arg_leaf.shape`` (``None`` for the leaves of
    ``arg`` that are not floats), each of ``arg_leaf``'s float dtype (float32 in, float32
    out, as in JAX)."""
    arg_leaves = tree_leaves(arg)
    out_leaves = tree_leaves(out)
    columns: dict[int, list] = {k: [] for k in range(len(arg_leaves))}
    for k, _, unit in _unit_tangents(arg):
        tangent = tree_leaves(tangent_out(unit))
        dtype = grad_dtype(arg_leaves[k])
        columns[k].append([np.zeros(np.shape(o), dtype) if t is None else np.asarray(t, dtype)
                           for t, o in zip(tangent, out_leaves, strict=True)])
    blocks_by_out = []
    for i, o in enumerate(out_leaves):
        if o is None:  # no derivative there (an integer leaf of a gradient)
            blocks_by_out.append(None)
            continue
        blocks = []
        for k, a in enumerate(arg_leaves):
            if not is_float_leaf(a):
                blocks.append(None)
                continue
            stacked = np.stack([c[i] for c in columns[k]], axis=-1) if columns[k] else (
                np.zeros(np.shape(o) + (0,), grad_dtype(a)))
            blocks.append(np.reshape(stacked, np.shape(o) + np.shape(a)))
        blocks_by_out.append(tree_unflatten_like(arg, blocks))
    return tree_unflatten_like(out, blocks_by_out)
