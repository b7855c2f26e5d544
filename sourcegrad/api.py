"""The functional API of CONTRACT section 1: ``grad``, ``value_and_grad``, ``vjp``,
``source``, ``stop_gradient``.

Each call finds (or generates and compiles) the derivative code through ``pipeline`` and
returns it: the function ``sg.grad(f)`` returns *is* the generated ``grad_f``, with ``f``'s
signature and a ``.source`` attribute holding its text.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from . import cache, checking, pipeline
from .rules.registry import nondifferentiable
from .rules.support import as_gradient

Wrt = int | str | tuple


def stop_gradient(x: Any) -> Any:
    """Return ``x``; every transformation treats the result as a constant."""
    return x


nondifferentiable(stop_gradient)


def _wrt_names(fun: Callable, wrt: Wrt) -> tuple[tuple[str, ...], bool]:
    """Parameter names for ``wrt``, and whether the caller asked for a single gradient."""
    params = pipeline.parameter_names(fun)
    single = not isinstance(wrt, (tuple, list))
    items = [wrt] if single else list(wrt)
    names = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, str)):
            raise TypeError(f"wrt must be an int, a str or a tuple of them; got {item!r}")
        if isinstance(item, int):
            if not -len(params) <= item < len(params):
                raise ValueError(f"wrt={item} is out of range for {fun.__name__}{tuple(params)}")
            names.append(params[item])
        else:
            if item not in params:
                raise ValueError(f"{fun.__name__} has no parameter named {item!r}; its "
                                 f"parameters are {', '.join(params)}")
            names.append(item)
    return tuple(names), single


def _generated(fun: Callable, wrt: Wrt, with_value: bool, check: bool | None = None) -> Any:
    single = not isinstance(wrt, (tuple, list))
    variant = ("value_and_grad" if with_value else "grad") + ("" if single else "-tuple")
    request = tuple(wrt) if isinstance(wrt, list) else wrt  # hashable, for the memory cache
    (compiled,) = cache.derivative(
        fun, request, variant, lambda: _wrt_names(fun, wrt)[0],
        lambda names: (_transform(fun, names, with_value, single),),
        finish=lambda compiled: _present_as(compiled, fun))
    if checking.wanted(check):
        return checking.checked_gradient(compiled, fun, _wrt_names(fun, wrt)[0], single,
                                         with_value)
    return compiled


def _transform(fun: Callable, names: tuple[str, ...], with_value: bool, single: bool) -> Any:
    analysis = pipeline.analyse_reverse(fun, names)
    fdef = pipeline.grad_function_ast(analysis, with_value=with_value, single=single)
    return pipeline.compile_generated(analysis, fdef)


def _present_as(compiled: Any, fun: Callable) -> None:
    """Give the generated function ``fun``'s signature, module and docstring; its source
    (``inspect.getsource``, tracebacks, ``pdb``) stays the generated code."""
    functools.update_wrapper(compiled, fun, assigned=("__module__", "__doc__"), updated=())
    # not ``__wrapped__``: the generated function is code of its own, which ``inspect`` (and so
    # ``sg.grad(sg.grad(f))``) must read, not ``fun``'s
    del compiled.__wrapped__
    compiled.__signature__ = inspect.signature(fun)
    compiled.__wrapped_fun__ = fun


def grad(fun: Callable | None = None, wrt: Wrt = 0, *, check: bool | None = None) -> Any:
    """The gradient of ``fun``'s scalar output with respect to the argument(s) ``wrt``.

    ``check=True`` (or ``SOURCEGRAD_CHECK=1``, when ``check`` is not given) compares the first
    call for each argument signature with central finite differences (``checking``)."""
    if fun is None:
        return functools.partial(grad, wrt=wrt, check=check)
    return _generated(fun, wrt, with_value=False, check=check)


def value_and_grad(fun: Callable | None = None, wrt: Wrt = 0, *,
                   check: bool | None = None) -> Any:
    """Like ``grad``, returning ``(value, gradient)``."""
    if fun is None:
        return functools.partial(value_and_grad, wrt=wrt, check=check)
    return _generated(fun, wrt, with_value=True, check=check)


def vjp(fun: Callable, *args: Any, check: bool | None = None
        ) -> tuple[Any, Callable[[Any], tuple]]:
    """``(value, pullback)``: ``pullback(cotangent)`` gives one gradient per positional
    argument (``None`` for an argument that is not a float). ``check``: see ``grad``."""
    params = pipeline.parameter_names(fun)[: len(args)]
    forward, backward = pipeline.split_functions(fun, tuple(params))
    value, saved = forward(*args)

    def pullback(cotangent: Any) -> tuple:
        grads = backward(cotangent, saved)
        return tuple(
            as_gradient(g, a) if _is_float_like(a) else None
            for g, a in zip(grads, args, strict=True)
        )

    if checking.wanted(check):
        pullback = checking.checked_pullback(pullback, (forward, backward), fun, args, value)
    return value, pullback


def _is_float_like(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return True
    if isinstance(value, (list, tuple)):
        return bool(value) and all(_is_float_like(v) for v in value)
    if isinstance(value, dict):
        return bool(value) and all(_is_float_like(v) for v in value.values())
    if isinstance(value, (np.ndarray, np.generic)):
        return np.issubdtype(value.dtype, np.inexact)
    return False


def source(fun: Callable, wrt: Wrt = 0, mode: str = "reverse") -> str:
    """The generated derivative code of ``fun`` as Python source text."""
    if mode == "reverse":
        return grad(fun, wrt=wrt, check=False).source
    if mode == "forward":
        return _forward_source(fun, wrt)
    raise ValueError(f"mode must be 'reverse' or 'forward'; got {mode!r}")



# -- forward mode ---------------------------------------------------------------------------
def _forward_source(fun: Callable, wrt: Wrt) -> str:
    from .forward_mode import jvp_function

    names, _ = _wrt_names(fun, wrt)
    return jvp_function(fun, names).source


def jvp(fun: Callable, primals: tuple | list, tangents: tuple | list, *,
        check: bool | None = None) -> tuple[Any, Any]:
    """``(value, tangent_out)``: ``fun``'s value at ``primals`` and its directional derivative
    along ``tangents`` (one per primal; ``None`` or a non-float primal: no tangent), computed
    by generated forward-mode code. ``check``: see ``grad``."""
    from .forward_mode import jvp_function

    primals, tangents = tuple(primals), tuple(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"jvp needs one tangent per primal; got {len(primals)} primals and "
                         f"{len(tangents)} tangents")
    params = pipeline.parameter_names(fun)[: len(primals)]
    wrt = tuple(p for p, x, t in zip(params, primals, tangents, strict=True)
                if t is not None and _is_float_like(x))
    generated = jvp_function(fun, wrt)

    def run(along: tuple | list) -> tuple[Any, Any]:
        given = dict(zip(params, along, strict=True))
        return generated(*primals, **{generated.tangent_params[p]: given[p] for p in wrt})

    result = run(tangents)
    if checking.wanted(check):
        checking.check_tangent(generated, fun, primals, [p in wrt for p in params], result[0],
                               lambda u: run(u)[1])
    return result
