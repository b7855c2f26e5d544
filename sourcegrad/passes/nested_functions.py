"""What inlining a nested function (a ``def`` or ``name = lambda ...`` inside the function
differentiated) cannot preserve, refused before it is silently wrong or fails with a
``NameError`` in generated code.

The desugarer inlines each call of a nested function with the body of the definition it
has seen last, in source order. Python instead calls whichever definition last ran: where
``def g`` appears in both branches of an ``if`` (or in a branch and before it), every call
after the ``if`` got the last one in the source, whichever branch ran. And a nested function
only exists where it is called: stored (``fs.append(g)``), passed (``sorted(v, key=g)``) or
returned, its name no longer exists in generated code.
"""

from __future__ import annotations

import ast

from ..frontend.source import Parsed


def refuse_definitions_in_two_blocks(parsed: Parsed, fdef: ast.FunctionDef) -> None:
    """A nested function defined in two statement lists (``if``/``else``, a loop and the
    code around it) of one function: which one a call runs depends on the path taken."""
    for scope in [fdef, *_nested_definitions(fdef)]:
        where: dict[str, int] = {}
        for block in _blocks(scope):
            for stmt in block:
                defined = _defined_function(stmt)
                if defined is None:
                    continue
                if where.setdefault(defined, id(block)) != id(block):
                    raise parsed.unsupported(
                        stmt, f"defining the nested function `{defined}` in two places, "
                        "one in a branch or loop (which definition a call runs depends on "
                        "the path taken)",
                        "Give each definition its own name and choose between the calls, or "
                        "pass what differs as a parameter.")


def refuse_values_of_nested_functions(parsed: Parsed, fdef: ast.FunctionDef,
                                      nested: set[str]) -> None:
    """A nested function's name read after desugaring: it was used as a value, not called
    (calls are inlined, and ``sg.grad(g)`` is bound to generated code already)."""
    if not nested:
        return  # (most functions: no walk)
    assigned = {n.id for n in ast.walk(fdef) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Store)}
    for node in ast.walk(fdef):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and (
                node.id in nested and node.id not in assigned):
            raise parsed.unsupported(
                node, f"using the nested function `{node.id}` as a value (stored, passed "
                "or returned rather than called)",
                f"Call `{node.id}` where its value is needed, or define it at module level "
                "(a key= of sorted/max/min needs a value that carries no derivative).")


def _defined_function(stmt: ast.stmt) -> str | None:
    if isinstance(stmt, ast.FunctionDef):
        return stmt.name
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Lambda) and len(
            stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    return None


def _blocks(scope: ast.FunctionDef) -> list[list[ast.stmt]]:
    """Every statement list of ``scope``, not entering the functions it defines."""
    found: list[list[ast.stmt]] = []
    pending: list[list[ast.stmt]] = [scope.body]
    while pending:
        block = pending.pop()
        found.append(block)
        for stmt in block:
            if isinstance(stmt, ast.FunctionDef):
                continue
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    pending.append(inner)
            for handler in getattr(stmt, "handlers", []):
                pending.append(handler.body)
    return found


def _nested_definitions(fdef: ast.FunctionDef) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(fdef) if isinstance(n, ast.FunctionDef) and n is not fdef]
