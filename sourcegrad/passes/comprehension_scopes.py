"""A comprehension's variables belong to the comprehension.

In Python 3, ``ys = [np.sin(x) for x in ws]`` binds its own ``x``: the function's ``x``
is untouched. The desugaring pass turns comprehensions into loops in the function's own
scope, where ``for x in ...`` would overwrite the function's ``x`` (and give the derivative
of other code). Before that, every comprehension variable whose name is used anywhere
outside the comprehension is renamed within it (``x`` -> ``x_2``). Renaming a variable
consistently throughout the scope that binds it never changes what the code computes, so
the test may err on the side of renaming; a variable used only inside its comprehension
keeps the user's name.

A comprehension's scope is everything in it except its first ``iter``, which Python
evaluates in the enclosing scope (``[x for x in x]`` reads the function's ``x``). Two
comprehensions side by side may share a name (each loop sets it before reading it); a
comprehension inside another that binds the same name is renamed (it would overwrite the
outer loop's variable).
"""

from __future__ import annotations

import ast
from collections import defaultdict

from ..codegen.names import Namer
from ..codegen.walk import walk

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def scope_comprehensions(fdef: ast.FunctionDef, namer: Namer) -> None:
    """Rename, in place, the comprehension variables of ``fdef`` that other code uses."""
    comprehensions = [n for n in walk(fdef) if isinstance(n, _COMPREHENSIONS)]
    if not comprehensions:
        return
    scopes = {id(c): _scope(c) for c in comprehensions}
    occurrences: dict[str, list[ast.AST]] = defaultdict(list)
    for node in walk(fdef):
        if isinstance(node, ast.Name):
            occurrences[node.id].append(node)
        elif isinstance(node, ast.arg):
            occurrences[node.arg].append(node)
    for comp in comprehensions:  # outer ones first (breadth first): inner ones see renames
        scope = scopes[id(comp)]
        for old in sorted(_bound(comp)):
            if _used_outside(comp, old, scope, comprehensions, scopes, occurrences):
                _rename(old, namer.fresh(old), scope, occurrences)


def _scope(comp: ast.expr) -> set[int]:
    """The nodes (by ``id``) evaluated in ``comp``'s own scope."""
    parts: list[ast.AST] = [comp.key, comp.value] if isinstance(comp, ast.DictComp) else [
        comp.elt]
    for i, gen in enumerate(comp.generators):
        parts.append(gen.target)
        parts.extend(gen.ifs)
        if i:
            parts.append(gen.iter)
    return {id(node) for part in parts for node in walk(part)}


def _bound(comp: ast.expr) -> set[str]:
    return {n.id for gen in comp.generators for n in walk(gen.target)
            if isinstance(n, ast.Name)}


def _used_outside(comp: ast.expr, name: str, scope: set[int], comprehensions: list,
                  scopes: dict[int, set[int]], occurrences: dict[str, list[ast.AST]]) -> bool:
    """Does ``name`` occur outside ``comp``'s scope, other than in a comprehension beside
    it (not inside it, not around it) that binds ``name`` itself?"""
    beside = [scopes[id(other)] for other in comprehensions
              if other is not comp and name in _bound(other)
              and id(other) not in scope and id(comp) not in scopes[id(other)]]
    return any(id(node) not in scope and not any(id(node) in s for s in beside)
               for node in occurrences[name])


def _rename(old: str, new: str, scope: set[int], occurrences: dict[str, list[ast.AST]]
            ) -> None:
    kept = []
    for node in occurrences[old]:
        if id(node) not in scope:
            kept.append(node)
        elif isinstance(node, ast.Name):
            node.id = new
            occurrences[new].append(node)
        else:  # a lambda's parameter inside the comprehension
            node.arg = new
            occurrences[new].append(node)
    occurrences[old] = kept
