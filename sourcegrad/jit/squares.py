"""In a specialised variant (NumPy path): the derivative of a constant times a square in one
step, as a careful person writes it.

``-0.5 * x * x`` is ``n * x`` with ``n = -0.5 * x``, and the product rule gives ``x`` two
cotangents, one of them through ``n``::

    grad_x = grad_t * n
    grad_n = grad_t * x
    del grad_t
    grad_x += grad_n * -0.5
    del grad_n

The second is ``grad_t * x * -0.5``, which is ``grad_t * n`` to rounding, the first: the pair
becomes ``grad_x *= 2``, one pass over the array where there were three. Only where that is
certain:

- ``n`` is bound once, to the number ``c`` times ``x`` (``c * x`` or ``x * c``), and the
  constant the second cotangent is scaled by is that ``c``;
- ``x`` is bound once (a parameter, or one assignment), so that it is the same
  value in ``n`` and in ``grad_t * x``;
- between the first product and the addition, ``grad_x``, ``grad_t`` and ``grad_n`` appear
  in nothing but ``del`` statements and the two statements themselves, and ``grad_n`` is
  bound once and read nowhere else.

Likewise ``x * x``'s two cotangents, ``grad_x = grad_t * x`` then ``grad_x += grad_t * x``,
become ``grad_x *= 2``, equal bit for bit.

The first rewrite's result equals the general code's to rounding (``grad_t * x * c`` and
``grad_t * (c * x)`` round differently), as the specialised code's sums over broadcast axes
do.
"""

from __future__ import annotations

import ast

from ..codegen import printer
from ..codegen.walk import blocks, names_in


def fold_squares(fdef: ast.FunctionDef) -> bool:
    """Rewrite ``fdef`` in place (see the module docstring); did anything change?"""
    scaled = _scaled_names(fdef)
    counts = _counts(fdef) if scaled else ({}, {})  # (a walk of every name: only if needed)
    changed = False
    for block in blocks(fdef):
        at = 0
        while at < len(block):
            if _fold_at(block, at, scaled, counts):
                changed = True
            at += 1
    return changed


def _scaled_names(fdef: ast.FunctionDef) -> dict[str, tuple[float, str]]:
    """``n -> (c, x)`` for each ``n = c * x`` (or ``x * c``), ``c`` a number."""
    found: dict[str, tuple[float, str]] = {}
    for block in blocks(fdef):
        for stmt in block:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                    stmt.targets[0], ast.Name):
                product = _product(stmt.value)
                if product is not None:
                    left, right = product
                    number, other = (_number(left), right) if _number(left) is not None else (
                        _number(right), left)
                    if number is not None and isinstance(other, ast.Name):
                        found[stmt.targets[0].id] = (number, other.id)
    return found


def _counts(fdef: ast.FunctionDef) -> tuple[dict[str, int], dict[str, int]]:
    """How many times each name is bound (a parameter once), and how many times read."""
    stores: dict[str, int] = {}
    reads: dict[str, int] = {}
    args = fdef.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
        if arg is not None:
            stores[arg.arg] = stores.get(arg.arg, 0) + 1
    for node in names_in(fdef):
        if isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node.ctx, ast.Load):
            reads[node.id] = reads.get(node.id, 0) + 1
    return stores, reads


def _product(node: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return node.left, node.right
    return None


def _number(node: ast.expr) -> float | None:
    """The value of a real number constant (``-0.5`` may be spelt ``-(0.5)``)."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    return None


def _names(a: ast.expr, b: ast.expr) -> tuple[str, str] | None:
    if isinstance(a, ast.Name) and isinstance(b, ast.Name):
        return a.id, b.id
    return None


def _fold_at(block: list[ast.stmt], at: int, scaled: dict[str, tuple[float, str]],
             counts: tuple[dict[str, int], dict[str, int]]) -> bool:
    """Is ``block[at]`` the first product ``grad_x = grad_t * n`` of the pattern? Then the
    pattern is rewritten."""
    first = block[at]
    if not (isinstance(first, ast.Assign) and len(first.targets) == 1
            and isinstance(first.targets[0], ast.Name)):
        return False
    factors = _product(first.value)
    pair = factors and _names(*factors)
    if not pair:
        return False
    result = first.targets[0].id
    if _fold_square(block, at, result, set(pair)):
        return True
    stores = counts[0]
    for seed, n in (pair, pair[::-1]):
        if n in scaled and stores.get(n) == 1 and seed != n:
            c, x = scaled[n]
            if stores.get(x) == 1 and x not in (seed, result, n) and _fold_with(
                    block, at, result, seed, n, c, x, counts):
                return True
    return False


def _fold_with(block: list[ast.stmt], at: int, result: str, seed: str, n: str, c: float,
               x: str, counts: tuple[dict[str, int], dict[str, int]]) -> bool:
    """From ``block[at]`` (``result = seed * n``): ``grad_n = seed * x`` then ``result +=
    grad_n * c``, with only ``del`` statements between; if found, rewritten."""
    second_at = _next(block, at, {result, seed})
    if second_at is None:
        return False
    second = block[second_at]
    if not (isinstance(second, ast.Assign) and len(second.targets) == 1
            and isinstance(second.targets[0], ast.Name)):
        return False
    grad_n = second.targets[0].id
    factors = _product(second.value)
    if not factors or set(_names(*factors) or ()) != {seed, x} or grad_n in (
            result, seed, n, x) or counts[0].get(grad_n) != 1 or counts[1].get(grad_n) != 1:
        return False  # (its one read: the addition below)
    third_at = _next(block, second_at, {result, grad_n})
    if third_at is None:
        return False
    third = block[third_at]
    scale = _product_added(third, result)
    if not scale:
        return False
    left, right = scale
    name, number = (left, _number(right)) if isinstance(left, ast.Name) else (
        right, _number(left))
    if not (isinstance(name, ast.Name) and name.id == grad_n and number == c):
        return False
    block[third_at] = ast.copy_location(_doubled(result), third)
    del block[second_at]
    _forget_deletes(block, grad_n)
    return True


def _fold_square(block: list[ast.stmt], at: int, result: str, factors: set[str]) -> bool:
    """``result = a * b`` then ``result += a * b`` (``x * x``'s two cotangents, ``a`` the
    cotangent and ``b`` the value ``x``, or the other way round) as ``result *= 2``: the
    same value twice, so doubled it is bit for bit the sum."""
    following = _next(block, at, {result, *factors})
    if following is None or result in factors:
        return False
    stmt = block[following]
    factors_again = _product_added(stmt, result)
    if not factors_again or set(_names(*factors_again) or ()) != factors:
        return False
    block[following] = ast.copy_location(_doubled(result), stmt)
    return True


def _product_added(stmt: ast.stmt, result: str) -> tuple[ast.expr, ast.expr] | None:
    """The factors of ``result += a * b``."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add) and isinstance(
            stmt.target, ast.Name) and stmt.target.id == result:
        return _product(stmt.value)
    return None


def _doubled(name: str) -> ast.AugAssign:
    return ast.AugAssign(target=ast.Name(id=name, ctx=ast.Store()), op=ast.Mult(),
                         value=ast.Constant(2))


def _next(block: list[ast.stmt], at: int, names: set[str]) -> int | None:
    """The next statement after ``at`` that is neither a comment nor a ``del`` (which may
    not name ``names``' values: those must live)."""
    for i in range(at + 1, len(block)):
        stmt = block[i]
        if printer.is_comment(stmt):
            continue
        if isinstance(stmt, ast.Delete):
            if any(isinstance(t, ast.Name) and t.id in names for t in stmt.targets):
                return None
            continue
        return i
    return None


def _forget_deletes(block: list[ast.stmt], name: str) -> None:
    for stmt in block:
        if isinstance(stmt, ast.Delete):
            stmt.targets = [t for t in stmt.targets
                            if not (isinstance(t, ast.Name) and t.id == name)]
    block[:] = [stmt for stmt in block if not (isinstance(stmt, ast.Delete) and not
                                               stmt.targets)]
