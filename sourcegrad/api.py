"""The functional API of CONTRACT section 1: ``grad``, ``value_and_grad``, ``vjp``,
``source``, ``stop_gradient``.

Each call finds (or generates and compiles) the derivative code through ``pipeline`` and
returns it: the function ``sg.grad(f)`` returns *is* the generated ``grad_f``, with ``f``'s
signature and a ``.source`` attribute holding its text.
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from . import cache, callables, checking, pipeline, pytrees, specialisation
from .rules.registry import nondifferentiable
from .rules.support import as_gradient, is_float_leaf, zeros_like_grad

Wrt = int | str | tuple


def stop_gradient(x: Any) -> Any:
    """Return ``x``; every transformation treats the result as a constant."""
    return x


nondifferentiable(stop_gradient)


def _wrt_names(fun: Callable, wrt: Wrt) -> tuple[tuple[str, ...], bool]:
    """Parameter names for ``wrt``, and whether the caller asked for a single gradient."""
    form = callables.form_of(fun)
    picks, single = form.picks(wrt)
    return tuple(p.param for p in picks), single


def _plan(fun: Callable, wrt: Wrt) -> tuple[callables.Form, list[callables.Pick], bool,
                                            tuple[str, ...]]:
    """``fun``'s form, where each requested gradient comes from, whether one was asked for,
    and the parameters to differentiate (each once, in the order first asked)."""
    form = callables.form_of(fun)
    picks, single = form.picks(wrt)
    names = tuple(dict.fromkeys(p.param for p in picks))
    return form, picks, single, names


def _generated(fun: Callable, wrt: Wrt, with_value: bool, has_aux: bool = False,
               check: bool | None = None) -> Any:
    if _plain(fun):  # the common case, answered from memory without looking at fun's form
        single = not isinstance(wrt, (tuple, list))
        variant = ("value_and_grad" if with_value else "grad") + (
            "" if single else "-tuple") + ("-aux" if has_aux else "")
        request = tuple(wrt) if isinstance(wrt, list) else wrt  # hashable, for the cache
        (compiled,) = cache.derivative(
            fun, request, variant, lambda: _wrt_names(fun, wrt)[0],
            lambda names: (_transform(fun, names, with_value, single, has_aux),),
            finish=lambda compiled: _present_as(compiled, fun))
        if checking.wanted(check):
            return checking.checked_gradient(compiled, fun, _wrt_names(fun, wrt)[0], single,
                                             with_value, has_aux)
        return compiled
    form, picks, single, names = _plan(fun, wrt)
    # the gradients the generated function returns are the ones asked for, in that order:
    # no element of *args or **kwargs to pick out, no parameter asked for twice
    as_asked = len(names) == len(picks) and all(p.index is None and p.key is None
                                                 for p in picks)
    tuple_out = not single or not as_asked
    variant = ("value_and_grad" if with_value else "grad") + ("-tuple" if tuple_out else "") + (
        "-aux" if has_aux else "")
    (compiled,) = cache.derivative(
        form.function, names, variant, lambda: names,
        lambda names: (_transform(form.function, names, with_value, not tuple_out, has_aux),),
        finish=lambda compiled: _present_as(compiled, form.function))
    if checking.wanted(check):  # checked as the function it differentiates, arguments bound
        compiled = checking.checked_gradient(compiled, form.function, names, not tuple_out,
                                             with_value, has_aux)
    if as_asked:
        return compiled if form.plain else callables.Derivative(compiled, form)
    shape = callables.gradients_last
    if with_value:
        shape = callables.gradients_after_value
    elif has_aux:
        shape = callables.gradients_first
    return callables.Derivative(compiled, form, _from_tuple(picks, names), single, shape)


def _plain(fun: Any) -> bool:
    """A function called as it is defined: no bound arguments, no ``*args``/``**kwargs``,
    no wrapper to look through (``callables.form_of`` would return it unchanged)."""
    return type(fun) is types.FunctionType and not fun.__code__.co_flags & _STAR_FLAGS and (
        "__wrapped__" not in fun.__dict__ and "__sourcegrad_function__" not in fun.__dict__)


_STAR_FLAGS = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS
_ARRAYS = (np.ndarray, float, np.float64, np.float32)  # leaves, said without a search


def _from_tuple(picks: list[callables.Pick], names: tuple[str, ...]) -> list[callables.Pick]:
    """The picks, read from the tuple of one gradient per differentiated parameter."""
    return [callables.Pick(p.param, p.index, p.key, position=names.index(p.param))
            for p in picks]


def _transform(fun: Callable, names: tuple[str, ...], with_value: bool, single: bool,
               has_aux: bool = False) -> Any:
    analysis = pipeline.analyse_reverse(fun, names, has_aux)
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
    specialisation.install(compiled)  # its variants, specialised at their first calls


def grad(fun: Callable | None = None, wrt: Wrt = 0, has_aux: bool = False, *,
         check: bool | None = None) -> Any:
    """The gradient of ``fun``'s scalar output with respect to the argument(s) ``wrt``; with
    ``has_aux``, ``fun`` returns ``(output, aux)`` and this returns ``(gradient, aux)``.

    ``check=True`` (or ``SOURCEGRAD_CHECK=1``, when ``check`` is not given) compares the first
    call for each argument signature with central finite differences (``checking``).

    The function returned is the general derivative (its ``.source``); the first call of
    each argument signature (shapes and dtypes) runs, and keeps for the next, a variant
    specialised to it, which ``.specialised_source(*args)`` shows (``specialisation``;
    ``SOURCEGRAD_SPECIALISE=0`` turns this off)."""
    if fun is None:
        return functools.partial(grad, wrt=wrt, has_aux=has_aux, check=check)
    return _generated(fun, wrt, with_value=False, has_aux=has_aux, check=check)


def value_and_grad(fun: Callable | None = None, wrt: Wrt = 0, has_aux: bool = False, *,
                   check: bool | None = None) -> Any:
    """Like ``grad``, returning ``(value, gradient)``; with ``has_aux``,
    ``((value, aux), gradient)``. ``check``: see ``grad``."""
    if fun is None:
        return functools.partial(value_and_grad, wrt=wrt, has_aux=has_aux, check=check)
    return _generated(fun, wrt, with_value=True, has_aux=has_aux, check=check)


def vjp(fun: Callable, *args: Any, has_aux: bool = False, check: bool | None = None
        ) -> tuple:
    """``(value, pullback)``: ``pullback(cotangent)`` gives one gradient per positional
    argument (``None`` for an argument that is not a float); with ``has_aux``, ``fun``
    returns ``(output, aux)`` and this returns ``(value, pullback, aux)``. ``check``: see
    ``grad``."""
    form = callables.form_of(fun)
    picks = [form.picks(i)[0][0] for i in range(len(args))]
    names = tuple(dict.fromkeys(p.param for p in picks))
    forward, backward = pipeline.split_functions(form.function, names, has_aux)
    value, saved = forward(*form.bound, *args, **form.keywords)

    def pullback(cotangent: Any) -> tuple:
        grads = backward(_for_generated_code(cotangent, value), saved)
        by_name = dict(zip(names, grads, strict=True))
        out = []
        for pick, arg in zip(picks, args, strict=True):
            g = by_name[pick.param]
            if pick.index is not None:
                g = g[pick.index] if g is not None else None
            # a structure's gradient is one, None at its leaves that are not floats
            out.append(as_gradient(g, arg) if _is_float_like(arg)
                       or not pytrees.is_leaf(arg) else None)
        return tuple(out)

    aux = None
    if has_aux:
        value, aux = value
    if checking.wanted(check):
        pullback = checking.checked_pullback(pullback, (forward, backward),
                                             checking.output_of(fun, has_aux), args, value)
    return (value, pullback, aux) if has_aux else (value, pullback)


def _is_float_like(value: Any) -> bool:
    """Does ``value`` carry a derivative: a float, an array of floats, or a structure with
    at least one such leaf?"""
    if isinstance(value, (np.ndarray, float, int)) or pytrees.is_leaf(value):
        return is_float_leaf(value)
    return any(is_float_leaf(leaf) for leaf in pytrees.tree_leaves(value))


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

    form, _, _, names = _plan(fun, wrt)
    return jvp_function(form.function, names).source


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
    form = callables.form_of(fun)
    generated = jvp_function(form.function, tuple(_tangents_by_parameter(form, primals,
                                                                         tangents)))

    def run(along: tuple | list) -> tuple[Any, Any]:
        given = _tangents_by_parameter(form, primals, tuple(along))
        value, tangent = generated(*form.bound, *primals, **form.keywords,
                                   **{generated.tangent_params[p]: t for p, t in given.items()})
        if type(value) not in _ARRAYS and pytrees.has_records(value):  # built as dicts of fields
            tangent = as_gradient(tangent, value)
        return value, tangent

    result = run(tangents)
    if checking.wanted(check):
        moved = [t is not None and _is_float_like(x)
                 for x, t in zip(primals, tangents, strict=True)]
        checking.check_tangent(generated, fun, primals, moved, result[0], lambda u: run(u)[1])
    return result


def _for_generated_code(tangent: Any, primal: Any) -> Any:
    """A tangent or cotangent of a structure as generated code reads it: zeros where it has
    ``None`` for a leaf that has a value, each namedtuple or dataclass a dict of fields."""
    if type(tangent) in _ARRAYS or pytrees.is_leaf(primal) and pytrees.is_leaf(tangent):
        return tangent
    completed = pytrees.tree_map(lambda p, t: zeros_like_grad(p) if t is None else t,
                                 primal, tangent)
    return pytrees.as_fields(completed)


def _tangents_by_parameter(form: callables.Form, primals: tuple, tangents: tuple
                           ) -> dict[str, Any]:
    """The tangent of each parameter that has one: the primal's own, or for ``*args`` the
    tuple of every element's (zeros where none was given)."""
    given: dict[str, Any] = {}
    varargs: dict[int, Any] = {}
    var_name = None
    for position, (x, t) in enumerate(zip(primals, tangents, strict=True)):
        pick = form.picks(position)[0][0]
        if pick.index is not None:
            var_name = pick.param
            varargs[pick.index] = (x, t if t is not None and _is_float_like(x) else None)
        elif t is not None and _is_float_like(x):
            given[pick.param] = _for_generated_code(t, x)
    if var_name is not None and any(t is not None for _, t in varargs.values()):
        offset = form._bound_into_varargs()
        elements = [zeros_like_grad(v) for v in form.bound[len(form.bound) - offset:]]
        elements += [t if t is not None else zeros_like_grad(x)
                     for _, (x, t) in sorted(varargs.items())]
        given[var_name] = tuple(elements)
    return given
