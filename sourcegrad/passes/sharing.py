"""Arrays shared through containers and unpacking, which the per-name view tracking of the
transformers does not follow: ``l = [a, b]; l[0][1] = v`` and ``p, q = a, b; p[0] = v``
change ``a``, and ``l[0] *= v`` does too (NumPy updates the array in place). A derivative
that took ``l``'s element or ``p`` for a value of its own would be silently wrong, so such
a write is refused where a derivative flows through it (both modes share this check: it
runs on the normal form).
"""

from __future__ import annotations

import ast

from ..codegen.walk import statements
from ..compile import is_generated
from ..frontend.source import Parsed
from .activity import Activity, is_append, stored_base


def refuse_writes_through_shared_arrays(parsed: Parsed, fdef: ast.FunctionDef,
                                        activity: Activity, temporaries: set[str]) -> None:
    if is_generated(parsed.filename):
        return  # generated code shares memory only where its author meant to
    held = _held_arrays(fdef, temporaries)
    unpacked = _unpacked_aliases(fdef, temporaries)
    for stmt in statements(fdef):
        target = _element_target(stmt)
        if target is None:
            continue
        base = stored_base(target)
        if isinstance(target.value, ast.Subscript) and base in activity.varied:
            raise parsed.unsupported(
                stmt, f"writing through a chained index `{parsed.quote(target)}`",
                "Index an array once (`a[i, j] = v`); for a list or dict, put a new element "
                "in its place (`held[i] = np.where(...)`, or a copy written into).")
        through_element = isinstance(target.value, ast.Subscript) or isinstance(
            stmt, ast.AugAssign) or getattr(stmt, "in_place_of", None) is not None
        if base in held and through_element:
            others = held[base]
            what = f"an array that `{base}` holds"
        elif base in unpacked:
            others = {unpacked[base]}
            what = f"`{base}`, which is `{unpacked[base]}` itself (unpacked from it)"
        else:
            continue
        if ({base} | others) & activity.varied:
            raise parsed.unsupported(
                stmt, f"writing into {what} (the write changes "
                f"`{sorted(others)[0]}` as well, and the derivative cannot follow it)",
                "Build the container from copies (`np.copy(a)`), or write into the array by "
                "its own name.")


def _element_target(stmt: ast.AST) -> ast.Subscript | None:
    """The element a statement writes into: ``l[0][1] = v``, ``l[0] += v``, and the
    ``l[0] = l[0] * v`` that ``l[0] *= v`` became."""
    if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Subscript):
        return stmt.targets[0]
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Subscript):
        return stmt.target
    return None


def _held_arrays(fdef: ast.FunctionDef, temporaries: set[str]) -> dict[str, set[str]]:
    """Containers -> the variables they were built from (displays and appends)."""
    held: dict[str, set[str]] = {}
    for stmt in statements(fdef):
        if is_append(stmt):
            owner, item = stmt.value.func.value.id, stmt.value.args[0]
            if isinstance(item, ast.Name) and item.id not in temporaries:
                held.setdefault(owner, set()).add(item.id)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) and (
                isinstance(stmt.value, (ast.List, ast.Tuple, ast.Dict))):
            items = stmt.value.values if isinstance(stmt.value, ast.Dict) else stmt.value.elts
            names = {e.id for e in items if isinstance(e, ast.Name)} - temporaries
            if names:
                held.setdefault(stmt.targets[0].id, set()).update(names)
    return held


def _unpacked_aliases(fdef: ast.FunctionDef, temporaries: set[str]) -> dict[str, str]:
    """``p, q = a, b`` (or ``pair = (a, b); p, q = pair``, as the normal form writes it):
    ``p`` is ``a`` and ``q`` is ``b``."""
    displays: dict[str, list[ast.expr]] = {}
    aliases: dict[str, str] = {}
    for stmt in statements(fdef):
        if not isinstance(stmt, ast.Assign):
            continue
        target, value = stmt.targets[0], stmt.value
        if isinstance(target, ast.Name) and isinstance(value, (ast.Tuple, ast.List)):
            displays[target.id] = value.elts
        if isinstance(value, ast.Name) and value.id in displays:
            value = ast.Tuple(elts=displays[value.id], ctx=ast.Load())
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(
                value, (ast.Tuple, ast.List)) and len(target.elts) == len(value.elts):
            for t, v in zip(target.elts, value.elts, strict=True):
                if isinstance(t, ast.Name) and isinstance(v, ast.Name) and (
                        v.id not in temporaries):
                    aliases[t.id] = v.id
    return aliases
