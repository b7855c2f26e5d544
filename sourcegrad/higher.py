"""Jacobians, Hessians and Hessian-vector products, built from the generated code.

``jacobian`` runs ``jvp_f`` once per input element (forward mode) or the split ``forward_f``
/ ``backward_f`` once per output element (reverse mode), whichever needs fewer runs.
``hessian`` and ``hvp`` are forward over reverse: the forward transformer reads the
generated ``grad_f`` (its source is registered with ``linecache``) like any user function,
and differentiates it with the rules ``rules/support_rules.py`` gives the helpers it calls.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from . import api, callables, pipeline, pytrees
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


def _reverse_jacobian(fun: Callable, param: str, args: tuple, argnum: int,
                      has_aux: bool = False) -> np.ndarray:
    forward, backward = pipeline.split_functions(fun, (param,), has_aux)
    value, saved = forward(*args)
    if has_aux:
        value = value[0]
    rows = [np.asarray(backward(unit, saved)[0], dtype=np.float64) * np.ones(np.shape(args[argnum]))
            for unit in _units(np.asarray(value, dtype=np.float64))]
    return np.reshape(np.stack(rows), np.shape(value) + np.shape(args[argnum]))


def _tree_jacobian(fun: Callable, args: tuple, argnum: int) -> Any:
    """The Jacobian with respect to a structured argument, or of a structured output: one
    forward-mode run per element of the argument's float leaves (``pytrees``)."""
    def tangent_out(unit: Any) -> Any:
        tangents = [None] * len(args)
        tangents[argnum] = unit
        return api.jvp(fun, args, tangents)[1]

    return pytrees.jacobian_by_tangents(tangent_out, args[argnum], fun(*args))


def _array_argument(fun: Callable, x: Any, param: str) -> None:
    if isinstance(x, bool) or not isinstance(x, (float, int, np.ndarray, np.generic)):
        raise TypeError(f"sg.jacobian and sg.hessian differentiate with respect to an array or "
                        f"a float; {fun.__name__}'s argument {param!r} is a "
                        f"{type(x).__name__}")


def jacobian(fun: Callable, wrt: api.Wrt = 0, mode: str | None = None,
             has_aux: bool = False) -> Callable[..., Any]:
    """A function returning the Jacobian of ``fun``'s (array) output with respect to the
    argument(s) ``wrt``, shaped ``out.shape + arg.shape``. ``mode=None`` picks forward mode
    when the argument has fewer elements than the output, reverse mode otherwise. With
    ``has_aux``, ``fun`` returns ``(output, aux)`` and this returns ``(jacobian, aux)``."""
    if mode not in (None, "forward", "reverse"):
        raise ValueError(f"mode must be None, 'forward' or 'reverse'; got {mode!r}")
    inner = _of_function(fun, wrt)  # a partial, a method...: its function's, bound
    if inner is not None:
        return _bound(jacobian(inner[0], inner[1], mode, has_aux), inner[2])
    names, single = api._wrt_names(fun, wrt)
    params = pipeline.parameter_names(fun)

    @functools.cache
    def tangent_code(param: str) -> Any:
        return jvp_function(fun, (param,), has_aux)

    @functools.wraps(fun)
    def jacobian_fun(*args: Any) -> Any:
        out = []
        value, aux = fun(*args) if has_aux else (fun(*args), None)
        for param in names:
            argnum = params.index(param)
            if not pytrees.is_leaf(args[argnum]) or not pytrees.is_leaf(value):
                if has_aux:
                    raise TypeError("sg.jacobian with has_aux=True takes array arguments")
                out.append(_tree_jacobian(fun, args, argnum))
                continue
            _array_argument(fun, args[argnum], param)
            chosen = mode or ("forward" if np.size(args[argnum]) < np.size(value)
                              else "reverse")
            if chosen == "forward":
                out.append(_forward_jacobian(tangent_code(param), param, args, argnum))
            else:
                out.append(_reverse_jacobian(fun, param, args, argnum, has_aux))
        result = out[0] if single else tuple(out)
        return (result, aux) if has_aux else result

    return jacobian_fun


def _of_function(fun: Callable, wrt: api.Wrt) -> tuple[Any, Any, Any] | None:
    """For a partial, bound method or callable instance: ``(its function, wrt as that
    function's parameter names, the form)``; ``None`` for a plain function."""
    form = callables.form_of(fun)
    picks, single = form.picks(wrt)
    if any(p.index is not None or p.key is not None for p in picks):
        raise TypeError(f"sg.jacobian, sg.hessian and sg.hvp differentiate with respect to "
                        f"named parameters; {form.label} gets this one through *args or "
                        f"**kwargs (wrt={wrt!r}). Name it as a parameter.")
    if form.plain and form.function is fun:
        return None
    names = tuple(p.param for p in picks)
    return form.function, names[0] if single else names, form


def _bound(made: Callable, form: Any) -> Callable:
    """``made`` (of the form's function) called as the form is: its arguments bound, those
    bound by keyword passed in their places (the Jacobian functions take positions only)."""
    if form.plain:
        return made
    params = [p for p in inspect.signature(form.function).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keywords = dict(form.keywords)

    def call(*args: Any) -> Any:
        full = [*form.bound, *args]
        rest = dict(keywords)
        for p in params[len(full):]:
            if p.name in rest:
                full.append(rest.pop(p.name))
            elif p.default is not p.empty and rest:
                full.append(p.default)
        if rest:
            raise TypeError(f"the arguments bound by keyword ({', '.join(rest)}) are not "
                            f"positional parameters of {form.label}")
        return made(*full)

    call.source = getattr(made, "source", None)
    return call


def _one_argument(fun: Callable, wrt: api.Wrt, what: str) -> str:
    names, single = api._wrt_names(fun, wrt)
    if not single:
        raise TypeError(f"sg.{what} takes one argument to differentiate with respect to (an int "
                        f"or a str); got wrt={wrt!r}")
    return names[0]


def _gradient_function(fun: Callable, param: str) -> Any:
    return api.grad(fun, wrt=param)


def hessian(fun: Callable, wrt: api.Wrt = 0) -> Callable[..., np.ndarray]:
    """A function returning the Hessian of ``fun``'s scalar output with respect to the
    argument ``wrt``, shaped ``arg.shape + arg.shape``: forward mode over ``grad_f``."""
    inner = _of_function(fun, wrt)
    if inner is not None:
        return _bound(hessian(inner[0], inner[1]), inner[2])
    param = _one_argument(fun, wrt, "hessian")
    params = pipeline.parameter_names(fun)
    argnum = params.index(param)
    tangent_code = jvp_function(_gradient_function(fun, param), (param,))

    @functools.wraps(fun)
    def hessian_fun(*args: Any) -> np.ndarray:
        if not pytrees.is_leaf(args[argnum]):
            return _tree_jacobian(api.grad(fun, wrt=param), args, argnum)
        _array_argument(fun, args[argnum], param)
        return _forward_jacobian(tangent_code, param, args, argnum)

    hessian_fun.source = tangent_code.source
    return hessian_fun


def hvp(fun: Callable, wrt: api.Wrt = 0) -> Callable[..., Any]:
    """A function of ``(*args, v)`` returning the Hessian of ``fun`` (with respect to
    ``wrt``) times ``v``: one run of forward mode over ``grad_f``, no Hessian formed."""
    inner = _of_function(fun, wrt)
    if inner is not None:
        if inner[2].keywords:
            raise TypeError("sg.hvp of a functools.partial with keyword arguments: bind them "
                            "positionally, or pass them in the call")
        return _bound(hvp(inner[0], inner[1]), inner[2])
    param = _one_argument(fun, wrt, "hvp")
    tangent_code = jvp_function(_gradient_function(fun, param), (param,))
    tangent_name = tangent_code.tangent_params[param]

    def hvp_fun(*args_and_v: Any) -> Any:
        *args, v = args_and_v
        return tangent_code(*args, **{tangent_name: v})[1]

    hvp_fun.source = tangent_code.source
    return hvp_fun
