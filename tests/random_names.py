"""Random programs under other names: a consistent renaming of every name a program binds
(its functions, parameters, locals, loop variables, and the aliases it imports modules
under), drawn from pools of names sourcegrad's generated code uses itself.

A renaming changes no behaviour (each new name is fresh in the program), so a derivative must
not change either: whatever breaks is a name the generated code captured. ``POOLS`` names the
pools; a test draws from those listed in ``ENABLED`` (the families that must already pass).
"""

from __future__ import annotations

import ast
import builtins
import os
import random

from sourcegrad import pipeline
from sourcegrad.codegen.names import adjoint_base

# names the generated code gives its own values, for the parameters and locals of a program
# (``x``, ``y``, ``v0``) and for its functions (``f``, ``helper``)
GENERATED = sorted({adjoint_base(n) for n in ("x", "y", "v0", "f_value", "helper_a")}
                   | {f"tangent_{n}" for n in ("x", "y", "v0")}
                   | {"x_saved", "v0_saved", "f_value", "grad_f_value", "forward_helper",
                      "backward_helper", "jvp_helper", "v0_stack", "result", "saved"})

POOLS = {
    "plain": ["alpha", "beta", "total", "value", "out", "acc", "tmp", "weight", "data"],
    "generated": GENERATED,
    # the helpers and modules generated code refers to by name
    "helpers": sorted(pipeline.HELPERS),
}

# the pools a random program draws its names from: ordinary names, and the names generated
# code uses itself (issue 11 section 2: no user name may capture one)
# (``SOURCEGRAD_FUZZ_NAMES=plain`` narrows them)
ENABLED = tuple(os.environ.get("SOURCEGRAD_FUZZ_NAMES", "plain,generated,helpers").split(","))


def bound_names(tree: ast.Module) -> set[str]:
    """The names the program binds (and so may rename)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            found.add(node.name)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, ast.alias) and "." not in node.name:
            found.add(node.asname or node.name)
    return found


def all_names(tree: ast.Module) -> set[str]:
    return bound_names(tree) | {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def rename(source: str, mapping: dict[str, str]) -> str:
    """``source`` with every name of ``mapping`` renamed, wherever it is bound or read
    (keyword arguments included, in calls of the program's own functions)."""
    tree = ast.parse(source)
    own = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            node.name = mapping.get(node.name, node.name)
        elif isinstance(node, ast.arg):
            node.arg = mapping.get(node.arg, node.arg)
        elif isinstance(node, ast.Name):
            node.id = mapping.get(node.id, node.id)
        elif isinstance(node, ast.alias) and "." not in node.name:
            bound = node.asname or node.name
            if bound in mapping:
                node.asname = mapping[bound]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                node.func.id in own):
            for keyword in node.keywords:
                if keyword.arg is not None:
                    keyword.arg = mapping.get(keyword.arg, keyword.arg)
    return ast.unparse(tree) + "\n"


def random_renaming(rng: random.Random, source: str, pools: tuple[str, ...] = ENABLED,
                    rate: float = 0.5) -> dict[str, str]:
    """A renaming of about ``rate`` of the names ``source`` binds to names of ``pools``, each
    new name fresh (not a name the program reads or binds, nor a builtin)."""
    tree = ast.parse(source)
    taken = all_names(tree) | set(dir(builtins))
    candidates = sorted({name for pool in pools for name in POOLS[pool]} - taken)
    mapping: dict[str, str] = {}
    for name in sorted(bound_names(tree)):
        if candidates and rng.random() < rate:
            new = candidates.pop(rng.randrange(len(candidates)))
            mapping[name] = new
    return mapping
