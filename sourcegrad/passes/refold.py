"""Fold temporaries the backward sweep does not read back into their single use.

Invariant after this pass: a temporary of the normal form survives in the forward sweep only
if the backward sweep reads it or it is read more than once; otherwise ``t = f(x)`` followed
by ``y = g(t)`` is ``y = g(f(x))``, so the forward sweep reads like the user's code and frees
intermediate values as soon as the user's own code would.
"""

from __future__ import annotations

import ast

from ..codegen.walk import name_counts, names_in, walk
from .desugar import located


def refold(forward: list[ast.stmt], foldable: set[str], only_names: bool = False
           ) -> list[ast.stmt]:
    """``t = f(x)`` followed by ``y = g(t)`` becomes ``y = g(f(x))`` when ``t`` is a
    temporary of the normal form that nothing else reads: the forward sweep then reads like
    the user's code and frees the value at once."""
    if not foldable:  # (counting every name is most of the work)
        return tidy(forward)
    # `t += v` reads `t` and changes it
    loads, _ = name_counts(forward, in_place_reads=2, only=foldable)
    candidates = {t for t in foldable if loads.get(t) == 1}
    return tidy(_refold_block(forward, candidates, only_names))


def tidy(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``x = x`` (left behind when a copy is folded into itself) goes, and so does a
    provenance comment left with no code under it (when the code under it was folded or
    dropped)."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        if out and _is_comment(out[-1]) and _is_comment(stmt):
            out.pop()
        if isinstance(stmt, (ast.If, ast.For, ast.While)):
            stmt.body = tidy(stmt.body) or [ast.Pass()]
            stmt.orelse = tidy(stmt.orelse)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) and (
                isinstance(stmt.value, ast.Name) and stmt.value.id == stmt.targets[0].id):
            continue
        out.append(stmt)
    if out and _is_comment(out[-1]):
        out.pop()
    return out


def _is_comment(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(
        stmt.value.value, str)


def _refold_block(stmts: list[ast.stmt], candidates: set[str], only_names: bool
                  ) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in stmts:
        for field in ("body", "orelse"):
            if isinstance(stmt, (ast.If, ast.For, ast.While)):
                setattr(stmt, field, _refold_block(getattr(stmt, field), candidates,
                                                   only_names))
        previous = out[-1] if out else None
        if not (isinstance(previous, ast.Assign) and isinstance(previous.targets[0], ast.Name)
                and previous.targets[0].id in candidates):
            out.append(stmt)
        elif (not only_names or isinstance(previous.value, ast.Name)) and _substitute_once(
                stmt, previous.targets[0].id, previous.value):
            out[-1] = stmt
        elif _copy_names(stmt) and _copy_names(stmt)[1] == previous.targets[0].id:
            # `t = f(x)` then `a = t`: `a = f(x)`
            out[-1] = located(ast.Assign(targets=stmt.targets, value=previous.value), stmt)
        else:
            out.append(stmt)
    return out


def _substitute_once(stmt: ast.stmt, var: str, value: ast.expr) -> bool:
    """Replace the load of ``var`` in ``stmt``'s own expressions (not in nested blocks)."""
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)):
        roots = [stmt.value]
    elif isinstance(stmt, (ast.If, ast.While)):
        roots = [stmt.test]
    elif isinstance(stmt, ast.For):
        roots = [stmt.iter]
    else:
        return False
    for root in roots:
        for node in walk(root):
            for field, child in ast.iter_fields(node):
                if isinstance(child, ast.Name) and child.id == var and isinstance(
                        child.ctx, ast.Load):
                    setattr(node, field, value)
                    return True
                if isinstance(child, list):
                    for i, item in enumerate(child):
                        if isinstance(item, ast.Name) and item.id == var:
                            child[i] = value
                            return True
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)) and isinstance(
            stmt.value, ast.Name) and stmt.value.id == var:
        stmt.value = value
        return True
    return False


def drop_round_trips(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``a = b`` then ``b = a`` (a cotangent handed through ``total = total + x`` and back)
    go, and the reads of ``a`` that follow read ``b``: when every read of ``a`` comes after
    the pair in the same block, before ``a`` or ``b`` is assigned again."""
    return _drop_round_trips(stmts, _Loads(stmts))


class _Loads(dict):
    """How often each name of ``stmts`` is read, counted when first asked: a round trip is
    rare, and counting every name of a sweep was most of the pass."""

    def __init__(self, stmts: list[ast.stmt]) -> None:
        super().__init__()
        self.stmts: list[ast.stmt] | None = stmts

    def counted(self) -> _Loads:
        if self.stmts is not None:
            self.update(name_counts(self.stmts)[0])
            self.stmts = None
        return self


def _drop_round_trips(stmts: list[ast.stmt], loads: _Loads) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    i = 0
    while i < len(stmts):
        stmt = stmts[i]
        if isinstance(stmt, (ast.If, ast.For, ast.While)):
            stmt.body = _drop_round_trips(stmt.body, loads)
            stmt.orelse = _drop_round_trips(stmt.orelse, loads)
        pair = _copy_names(stmt), _copy_names(stmts[i + 1]) if i + 1 < len(stmts) else None
        if pair[0] and pair[1] == pair[0][::-1] and _rename_reads(stmts[i + 2:], *pair[0],
                                                                  loads.counted()):
            i += 2
            continue
        out.append(stmt)
        i += 1
    return out


def _copy_names(stmt: ast.stmt) -> tuple[str, str] | None:
    """``(a, b)`` for ``a = b``."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Name):
        return stmt.targets[0].id, stmt.value.id
    return None


def _rename_reads(rest: list[ast.stmt], a: str, b: str, loads: dict[str, int]) -> bool:
    """Read ``b`` for ``a`` in ``rest`` if all of ``a``'s reads but the pair's are there,
    before ``a`` or ``b`` is stored again; say whether it was done."""
    reads: list[ast.Name] = []
    for stmt in rest:
        names = list(names_in(stmt))
        reads += [n for n in names if n.id == a and isinstance(n.ctx, ast.Load)]
        if any(n.id in (a, b) and not isinstance(n.ctx, ast.Load) for n in names):
            if isinstance(stmt, ast.Assign) and all(
                    n.id != a for n in names_in(stmt.value)):
                break  # the reads so far are before the store, and the value reads no `a`
            return False
    if len(reads) != loads.get(a, 0) - 1:
        return False
    for node in reads:
        node.id = b
    loads[a] = 0
    loads[b] = loads.get(b, 0) + len(reads) - 1  # the pair's `a = b` is gone
    return True
