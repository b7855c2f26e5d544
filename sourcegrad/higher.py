"""Jacobians, Hessians and Hessian-vector products, built from the generated code.

``jacobian`` runs ``jvp_f`` once per input element (forward mode) or the split ``forward_f``
/ ``backward_f`` once per output element (reverse mode), whichever needs fewer runs.
``hessian`` and ``hvp`` are forward over reverse: the forward transformer reads the
generated ``grad_f`` (its source is registered with ``linecache``) like any user function,
and differentiates it with the rules ``rules/support_rules.py`` gives the helpers it calls.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from . import api, pipeline
from .forward_mode import jvp_function


def _units(x: Any):
    """One-hot tangents of the array or float ``x``, in C order."""
    shape = np.shape(x)
    for index in np.ndindex(shape):
        unit = np.zeros(shape)
        unit[index] = 1.0
        yield float(unit) if isinstance(x, float) else unit


def _forward_jacobian(generated: Any, param: str, args: tuple, argnum: int) -> np.ndarray:
    tangent_name = generated.tangent_params[param]
    columns = [np.asarray(generated(*args, **{tangent_name: unit})[1], dtype=np.float64)
               for unit in _units(args[argnum])]
    value_shape = columns[0].shape if columns else np.shape(generated(*args)[0])
    stacked = np.stack(columns, axis=-1) if columns else np.zeros(value_shape + (0,))
    return np.reshape(stacked, value_shape + np.shape(args[argnum]))


def _reverse_jacobian(fun: Callable, param: str, args: tuple, argnum: int) -> np.ndarray:
    forward, backward = pipeline.split_functions(fun, (param,))
    value, saved = forward(*args)
    rows = [np.asarray(backward(unit, saved)[0], dtype=np.float64) * np.ones(np.shape(args[argnum]))
            for unit in _units(np.asarray(value, dtype=np.float64))]
    return np.reshape(np.stack(rows), np.shape(value) + np.shape(args[argnum]))


def _array_argument(fun: Callable, x: Any, param: str) -> None:
    if isinstance(x, bool) or not isinstance(x, (float, int, np.ndarray, np.generic)):
        raise TypeError(f"sg.jacobian and sg.hessian differentiate with respect to an array or "
                        f"a float; {fun.__name__}'s argument {param!r} is a "
                        f"{type(x).__name__}")


def jacobian(fun: Callable, wrt: api.Wrt = 0, mode: str | None = None) -> Callable[..., Any]:
    """A function returning the Jacobian of ``fun``'s (array) output with respect to the
    argument(s) ``wrt``, shaped ``out.shape + arg.shape``. ``mode=None`` picks forward mode
    when the argument has fewer elements than the output, reverse mode otherwise."""
    if mode not in (None, "forward", "reverse"):
        raise ValueError(f"mode must be None, 'forward' or 'reverse'; got {mode!r}")
    names, single = api._wrt_names(fun, wrt)
    params = pipeline.parameter_names(fun)

    @functools.cache
    def tangent_code(param: str) -> Any:
        return jvp_function(fun, (param,))

    @functools.wraps(fun)
    def jacobian_fun(*args: Any) -> Any:
        out = []
        for param in names:
            argnum = params.index(param)
            _array_argument(fun, args[argnum], param)
            chosen = mode or ("forward" if np.size(args[argnum]) < np.size(fun(*args))
                              else "reverse")
            if chosen == "forward":
                out.append(_forward_jacobian(tangent_code(param), param, args, argnum))
            else:
                out.append(_reverse_jacobian(fun, param, args, argnum))
        return out[0] if single else tuple(out)

    return jacobian_fun


def _one_argument(fun: Callable, wrt: api.Wrt, what: str) -> str:
    names, single = api._wrt_names(fun, wrt)
    if not single:
        raise TypeError(f"sg.{what} takes one argument to differentiate with respect to (an int "
                        f"or a str); got wrt={wrt!r}")
    return names[0]


def _gradient_function(fun: Callable, param: str) -> Any:
    return api.grad(fun, wrt=param, check=False)  # the generated code itself, to read


def hessian(fun: Callable, wrt: api.Wrt = 0) -> Callable[..., np.ndarray]:
    """A function returning the Hessian of ``fun``'s scalar output with respect to the
    argument ``wrt``, shaped ``arg.shape + arg.shape``: forward mode over ``grad_f``."""
    param = _one_argument(fun, wrt, "hessian")
    params = pipeline.parameter_names(fun)
    argnum = params.index(param)
    tangent_code = jvp_function(_gradient_function(fun, param), (param,))

    @functools.wraps(fun)
    def hessian_fun(*args: Any) -> np.ndarray:
        _array_argument(fun, args[argnum], param)
        return _forward_jacobian(tangent_code, param, args, argnum)

    hessian_fun.source = tangent_code.source
    return hessian_fun


def hvp(fun: Callable, wrt: api.Wrt = 0) -> Callable[..., Any]:
    """A function of ``(*args, v)`` returning the Hessian of ``fun`` (with respect to
    ``wrt``) times ``v``: one run of forward mode over ``grad_f``, no Hessian formed."""
    param = _one_argument(fun, wrt, "hvp")
    tangent_code = jvp_function(_gradient_function(fun, param), (param,))
    tangent_name = tangent_code.tangent_params[param]

    def hvp_fun(*args_and_v: Any) -> Any:
        *args, v = args_and_v
        return tangent_code(*args, **{tangent_name: v})[1]

    hvp_fun.source = tangent_code.source
    return hvp_fun
