"""In a specialised variant (NumPy path): no multiplication by the seed's ones.

The gradient of ``np.sum(a * b)`` starts from the seed ``1.0`` spread over the summed shape,
and the product rule multiplies it into each factor's cotangent::

    grad_a_times_b = np.broadcast_to(grad_value, (1000,))
    grad_a = grad_a_times_b * b
    del b

where a careful person reads ``b`` itself. Where the product is certain to be ``b`` bit for
bit, the product and its name go, and later reads of ``grad_a`` read ``b``:

- the spread value is the number one (``grad_value = 1.0``, bound once; in the argument's
  dtype, ``np.asarray(grad_value, np.float32)``, for a float32 function) and the product has
  ``b``'s shape and a float dtype that is ``b``'s (``1.0 * v`` is ``v`` for every float
  ``v``, nan, infinities and ``-0.0`` included; a float32 ``b`` times float64 ones would be
  float64, which ``b`` is not);
- ``b`` dies at the product (``del b`` follows) and is an array nothing else sees
  (``reuse.private_arrays``): what later writes into ``grad_a`` in place (``grad_a +=
  ...``) may write into ``b``;
- ``grad_a`` is not named before the product, nor ``b`` after its ``del``: the two names
  become one (``b``'s, unless the function returns ``grad_a``).

Only the function's top-level statements are looked at: that is where the seed is spread.
"""

from __future__ import annotations

import ast

import numpy as np

from ..codegen import printer
from ..codegen.walk import names_in
from .reuse import IsUfuncCall, Known, array_of, private_arrays


def drop_products_with_ones(fdef: ast.FunctionDef, known: Known, ufunc_call: IsUfuncCall,
                            np_name: str) -> bool:
    """Rewrite ``fdef`` in place (see the module docstring); did anything change?"""
    body = fdef.body
    if not _candidates(body, _ones(body, np_name)[1], known):
        return False  # (a look at the top level, no walk: most functions stop here)
    changed, deferred = False, True
    while deferred:  # (a product of a name just renamed is judged again, in another round)
        stores, occurrences = _bindings(fdef)
        _, ones = _ones(body, np_name, stores)
        if not ones:
            break
        private: set[str] | None = None  # (a walk of the function: made when first asked)
        returned = {node.id for stmt in body if isinstance(stmt, ast.Return)
                    for node in names_in(stmt)}
        renames: dict[str, str] = {}
        dropped: set[int] = set()
        deferred = False
        for at, stmt in enumerate(body):
            found = _product_with_ones(stmt, ones, known)
            if found is None:
                continue
            product, factor = found
            dies = _next_statement(body, at)  # (where ``del factor`` must be)
            if not (dies is not None and _deletes(body[dies], factor) and factor not in ones
                    and min(occurrences[product]) == at  # (its nodes all follow)
                    and occurrences[factor].count(dies) == 1
                    and max(occurrences[factor]) == dies):
                continue
            if private is None:
                private = private_arrays(fdef, known, ufunc_call)
            if factor not in private:
                continue
            if {product, factor} & (renames.keys() | set(renames.values())):
                deferred = True
                continue
            dropped |= _forget_product(body, at, dies, factor)
            # the two names, whose nodes are apart (the factor's up to the product, the
            # product's after), become one: the factor's (``sin_x``, which reads as the maths
            # does), unless the function returns the product (``grad_x``: the name says
            # what the caller gets)
            old, new = (factor, product) if product in returned else (product, factor)
            renames[old] = new
        if not renames:
            break
        body[:] = [stmt for stmt in body if id(stmt) not in dropped]
        for node in names_in(fdef):
            new = renames.get(node.id)
            if new is not None:
                node.id = new
        changed = True
    if changed:
        _drop_unread_ones(fdef, np_name)
    return changed


def _candidates(body: list[ast.stmt], ones: set[str], known: Known) -> bool:
    """Is there a product with ones whose factor is deleted right after it?"""
    for at, stmt in enumerate(body):
        found = _product_with_ones(stmt, ones, known) if ones else None
        if found is not None:
            dies = _next_statement(body, at)
            if dies is not None and _deletes(body[dies], found[1]):
                return True
    return False


def _spreads_a_name(stmt: ast.stmt, np_name: str) -> bool:
    return isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and _is_np(
        stmt.value.func, "broadcast_to", np_name)


def _ones(body: list[ast.stmt], np_name: str, stores: dict[str, int] | None = None
          ) -> tuple[set[str], set[str]]:
    """Names bound (once in the function, at its top level) to the number one, or to such a
    name; and those bound so to ``np.broadcast_to(one, shape)``, ``one`` the number one or
    such a name. (Without ``stores``: the names bound so at the top level, maybe again
    elsewhere.)"""
    numbers: set[str] = set()
    spread: set[str] = set()
    for stmt in body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)):
            continue
        value, name = stmt.value, stmt.targets[0].id
        if stores is not None and stores.get(name) != 1:
            continue
        if _is_one(value) or isinstance(value, ast.Name) and value.id in numbers:
            numbers.add(name)
        elif _spreads_a_name(stmt, np_name) and len(value.args) == 2 and not (
                value.keywords) and _one_of_a_dtype(value.args[0], numbers, np_name):
            spread.add(name)
    return numbers, spread


def _one_of_a_dtype(node: ast.expr, numbers: set[str], np_name: str) -> bool:
    """Is ``node`` the number one, a name of it, or ``np.asarray`` of either in a dtype
    (``np.asarray(grad_value, np.float32)``: the seed of a float32 function)?"""
    if isinstance(node, ast.Call) and _is_np(node.func, "asarray", np_name) and len(
            node.args) == 2 and not node.keywords:
        node = node.args[0]
    return _is_one(node) or isinstance(node, ast.Name) and node.id in numbers


def _drop_unread_ones(fdef: ast.FunctionDef, np_name: str) -> None:
    """The spread ones nothing reads any more go, then the numbers one they spread."""
    for which in (1, 0):
        stores, occurrences = _bindings(fdef)
        names = _ones(fdef.body, np_name, stores)[which]
        unread = {name for name in names
                  if len(occurrences[name]) - 1 == _deleted(fdef.body, name)}
        fdef.body[:] = [stmt for stmt in fdef.body if not (
            isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id in unread)]
        for stmt in fdef.body:
            if isinstance(stmt, ast.Delete):
                stmt.targets = [t for t in stmt.targets
                                if not (isinstance(t, ast.Name) and t.id in unread)]
        fdef.body[:] = [stmt for stmt in fdef.body
                        if not (isinstance(stmt, ast.Delete) and not stmt.targets)]


def _deleted(body: list[ast.stmt], name: str) -> int:
    return sum(isinstance(stmt, ast.Delete) and _deletes(stmt, name) for stmt in body)


def _is_one(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float) and (
        node.value == 1)


def _is_np(func: ast.expr, attribute: str, np_name: str) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == attribute and isinstance(
        func.value, ast.Name) and func.value.id == np_name


def _product_with_ones(stmt: ast.stmt, ones: set[str], known: Known
                       ) -> tuple[str, str] | None:
    """``(p, b)`` of ``p = ones * b`` (or ``b * ones``) where the product is ``b`` exactly."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.BinOp)
            and isinstance(stmt.value.op, ast.Mult)):
        return None
    left, right = stmt.value.left, stmt.value.right
    if not (isinstance(left, ast.Name) and isinstance(right, ast.Name)):
        return None
    if left.id in ones:
        factor = right
    elif right.id in ones:
        factor = left
    else:
        return None
    result, operand = array_of(stmt.value, known), array_of(factor, known)
    if result is None or operand is None or result.shape != operand.shape or (
            np.dtype(result.dtype) != np.dtype(operand.dtype)) or (
            np.dtype(result.dtype).kind != "f"):
        return None
    return stmt.targets[0].id, factor.id


def _next_statement(body: list[ast.stmt], at: int) -> int | None:
    """The position of the statement after ``at`` that is not a comment."""
    for following in range(at + 1, len(body)):
        if not printer.is_comment(body[following]):
            return following
    return None


def _deletes(stmt: ast.stmt, name: str) -> bool:
    return isinstance(stmt, ast.Delete) and any(
        isinstance(t, ast.Name) and t.id == name for t in stmt.targets)


def _bindings(fdef: ast.FunctionDef) -> tuple[dict[str, int], dict[str, list[int]]]:
    """How many times each name is stored, and the top-level positions of the statements
    holding each of its nodes (one per node)."""
    stores: dict[str, int] = {}
    occurrences: dict[str, list[int]] = {}
    for at, stmt in enumerate(fdef.body):
        for node in names_in(stmt):
            occurrences.setdefault(node.id, []).append(at)
            if isinstance(node.ctx, ast.Store):
                stores[node.id] = stores.get(node.id, 0) + 1
    return stores, occurrences


def _forget_product(body: list[ast.stmt], at: int, dies: int, factor: str) -> set[int]:
    """The statements to drop for ``product = ones * factor`` at ``at``: itself, and the
    ``del`` after it once ``factor`` has left it."""
    following = body[dies]
    assert isinstance(following, ast.Delete)
    following.targets = [t for t in following.targets
                         if not (isinstance(t, ast.Name) and t.id == factor)]
    return {id(body[at])} | ({id(following)} if not following.targets else set())
