"""Calls of function values that only the running code knows: ``for f in funs: total +=
f(x)``, ``self.layer(h)``, a function passed as an argument. Generated code calls them
through these two helpers, which differentiate whatever function arrives, as ``sg.vjp`` and
``sg.jvp`` do (its derivative is made once and kept, like any other).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


def pullback_of(fun: Callable, *args: Any, **keywords: Any) -> tuple[Any, Callable]:
    """``(fun(*args, **keywords), pullback)``: ``pullback(cotangent)`` gives the cotangent
    of each positional argument (keyword arguments are constants)."""
    from .api import vjp

    if keywords:
        fun = functools.partial(fun, **keywords)
    return vjp(fun, *args)


def tangent_of(fun: Callable, primals: tuple, tangents: tuple, **keywords: Any
               ) -> tuple[Any, Any]:
    """``(fun(*primals, **keywords), its tangent)`` along ``tangents`` (``None``: none)."""
    from .api import jvp

    if keywords:
        fun = functools.partial(fun, **keywords)
    return jvp(fun, primals, tangents)


def is_dynamic_helper(callee: Any) -> bool:
    return callee is pullback_of or callee is tangent_of


def dynamic_again(parsed: Any, stmt: Any) -> Exception:
    """The refusal of differentiating again a derivative that calls a function value."""
    return parsed.unsupported(
        stmt, "differentiating again a derivative that calls a function value (`f(x)` with "
        "`f` known only when the code runs: a loop variable, an argument, a method)",
        "Call the function by its module-level name where a second derivative is needed.")


def dynamic_depends(parsed: Any, stmt: Any, label: str) -> Exception:
    """The refusal of a function value that itself depends on what is differentiated."""
    return parsed.unsupported(
        stmt, f"calling `{label}`, a function value that depends on the values differentiated "
        "(a closure over them, or a derivative of them)",
        "Pass those values to the function as arguments, or call a function defined by name.")
