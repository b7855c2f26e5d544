"""Which operands are known, from the code alone, to have their operation's output shape.

Such an operand's cotangent needs no ``unbroadcast`` and its tangent no ``broadcast_like``:
the generated code then reads like the arithmetic it is and skips a helper call per
operation. Two facts prove it:

- every other operand is a scalar (``passes/scalars.py``) that the operation broadcasts
  (a differentiable parameter: not a shape, ``np.full(3, v)``, or a count);
- the operation is elementwise (a ufunc) and every other operand has the *same shape* as
  this one: both come, through elementwise operations only, from the same parameter, so
  ``np.sin(x) * np.exp(-0.5 * x * x)`` multiplies two arrays shaped like ``x``.

A variable's shape source is its parameter when every assignment to it gives an array shaped
like that parameter's argument (the greatest fixed point, so that a loop such as
``x = np.tanh(x)`` keeps ``x``'s shape). Nothing else is assumed: a matmul, a reduction with
an axis, an index or a call to user code gives an unknown shape.
"""

from __future__ import annotations

import ast

import numpy as np

from ..codegen.inline import is_scalar_literal
from ..codegen.walk import walk
from ..frontend.resolve import RULE, Op, Resolver
from .scalars import settle, variable_assignments

SCALAR = "()"  # the shape source of a scalar: it broadcasts against anything
_TOP = "?"  # not known yet (the optimistic start of the fixed point)
_UNKNOWN = ""


class ShapeFacts:
    def __init__(self, scalars: set[str], sources: dict[str, str],
                 float_arrays: frozenset[str] = frozenset()) -> None:
        self.scalars = scalars
        self.sources = sources  # variable -> the parameter whose shape it has, or SCALAR
        # variables every assignment of which makes an array of a float dtype the text names
        # or implies (`np.zeros(n)`): a value written into one keeps its derivative, with no
        # look at the array's dtype when the code runs (`written_into`)
        self.float_arrays = float_arrays

    def is_scalar(self, expr: ast.expr) -> bool:
        return is_scalar_literal(expr) or isinstance(expr, ast.Name) and expr.id in self.scalars

    def has_output_shape(self, operand: ast.expr, op: Op) -> bool:
        """Does ``operand`` of ``op`` have the shape of ``op``'s output?"""
        nondiff = op.rule.nondiff if op.rule is not None else frozenset()
        others = []
        broadcast_scalars = True  # (a scalar that is a shape, ``np.full(3, v)``, is no operand)
        for param, arg in op.args.items():
            if arg is not operand:
                others.append(arg)
                if broadcast_scalars and (param in nondiff or not self.is_scalar(arg)):
                    broadcast_scalars = False
        if not others:
            return False
        if broadcast_scalars:
            return True
        source = self.source(operand)
        return _elementwise(op) and source not in (_UNKNOWN, SCALAR) and all(
            self.source(a) in (SCALAR, source) for a in others)

    def parameter_shaped_like(self, expr: ast.expr) -> str | None:
        """The parameter ``expr`` (a variable) is known to have the shape of, if any."""
        source = self.source(expr)
        return None if source in (_UNKNOWN, SCALAR) else source

    def source(self, expr: ast.expr) -> str:
        if self.is_scalar(expr):
            return SCALAR
        if isinstance(expr, ast.Name):
            return self.sources.get(expr.id, _UNKNOWN)
        return _UNKNOWN


def shape_facts(body: list[ast.stmt], params: list[str], scalars: set[str],
                resolver: Resolver) -> ShapeFacts:
    # element writes (`x[i] = v`) never change a shape
    assignments = variable_assignments(body, element_writes=False)
    sources = {var: _TOP for var, _ in assignments}
    sources.update({p: p for p in params})

    def lowered(index: int) -> str | None:
        var, value = assignments[index]
        if sources[var] == _UNKNOWN:
            return None
        new = _meet(sources[var], _source_of(value, sources, scalars, resolver))
        if new == sources[var]:
            return None
        sources[var] = new
        return var

    settle(assignments, lowered)
    known = {v: s for v, s in sources.items() if s not in (_TOP, _UNKNOWN)}
    # a parameter holds what the caller gave until (and unless) it is assigned
    return ShapeFacts(scalars, known, _float_arrays(assignments, resolver) - set(params))


# constructors whose array is float64 unless a `dtype=` says otherwise, by how many positional
# arguments they may take before `dtype` (np.zeros(shape), np.eye(n, m, k))
_FLOAT_BY_DEFAULT = {np.zeros: 1, np.ones: 1, np.empty: 1, np.eye: 3, np.identity: 1}


def _float_arrays(assignments: list[tuple[str, ast.expr | None]], resolver: Resolver
                  ) -> frozenset[str]:
    """The variables every assignment of which makes a new array of a float (or complex)
    dtype, as the text says: ``np.zeros(n)``, ``np.empty((n, m), dtype=np.float32)``,
    ``np.full(n, 0.0)``."""
    verdicts: dict[str, bool] = {}
    for var, value in assignments:
        verdicts[var] = verdicts.get(var, True) and _makes_float_array(value, resolver)
    return frozenset(var for var, floating in verdicts.items() if floating)


def _makes_float_array(value: ast.expr | None, resolver: Resolver) -> bool:
    if not isinstance(value, ast.Call) or any(isinstance(a, ast.Starred) for a in value.args):
        return False
    try:
        made_by = resolver.value_of(value.func)
    except Exception:  # anything unusual is simply not known
        return False
    keywords = {k.arg: k.value for k in value.keywords}
    if made_by is np.full and len(value.args) == 2 and "dtype" not in keywords:
        fill = value.args[1]
        return isinstance(fill, ast.Constant) and type(fill.value) in (float, complex)
    if not _hashable(made_by) or made_by not in _FLOAT_BY_DEFAULT or len(
            value.args) > _FLOAT_BY_DEFAULT[made_by] or None in keywords:
        return False
    if "dtype" not in keywords:
        return True
    dtype = resolver.dtype_named(keywords["dtype"])
    return dtype is not None and dtype.kind in "fc"


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _source_of(value: ast.expr | None, sources: dict[str, str], scalars: set[str],
               resolver: Resolver) -> str:
    if value is None:
        return _UNKNOWN
    if is_scalar_literal(value) or isinstance(value, ast.Name) and value.id in scalars:
        return SCALAR
    if isinstance(value, ast.Name):
        return sources.get(value.id, _UNKNOWN)
    try:
        op = resolver.classify(value)
    except Exception:  # anything unusual simply has an unknown shape
        return _UNKNOWN
    if not _elementwise(op):
        return _UNKNOWN
    result = SCALAR
    for arg in op.args.values():
        result = _join(result, _source_of(arg, sources, scalars, resolver))
    return result


def _elementwise(op: Op) -> bool:
    """A ufunc applied to its array operands only (no ``out=``/``where=``), so that its
    output has their broadcast shape."""
    callee = op.callee
    return op.kind == RULE and isinstance(callee, np.ufunc) and (
        callee.signature is None and len(op.args) == callee.nin and not op.varargs)


def _join(a: str, b: str) -> str:
    """The shape source of an elementwise result of operands with sources ``a`` and ``b``."""
    if _UNKNOWN in (a, b):
        return _UNKNOWN
    if a in (SCALAR, _TOP):
        return b if a == SCALAR or b != SCALAR else a
    if b in (SCALAR, _TOP):
        return a
    return a if a == b else _UNKNOWN


def _meet(current: str, new: str) -> str:
    """A variable's source given another assignment's: the same, or unknown."""
    if current == _TOP:
        return new
    if new == _TOP:
        return current
    return current if current == new else _UNKNOWN


def shapes_from_parameters(expr: ast.expr, facts: ShapeFacts,
                           shape_arguments: dict[str, tuple[int, ...]]) -> ast.expr:
    """``unbroadcast(g, y)`` -> ``unbroadcast(g, x)`` when ``y`` has the shape of the
    parameter ``x``: the parameter is alive anyway, so the backward sweep need not keep ``y``
    (the forward sweep can even fold it away). ``shape_arguments``: which arguments of which
    helper are read only for their shapes."""
    for node in walk(expr):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        for i in shape_arguments.get(node.func.id, ()):
            if i < len(node.args) and isinstance(node.args[i], ast.Name):
                parameter = facts.parameter_shaped_like(node.args[i])
                if parameter is not None:
                    node.args[i] = ast.Name(id=parameter, ctx=ast.Load())
    return expr
