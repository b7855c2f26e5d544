"""The functional API of CONTRACT section 1: ``grad``, ``value_and_grad``, ``vjp``,
``source``, ``stop_gradient``.

Each call finds (or generates and compiles) the derivative code through ``pipeline`` and
returns it: what ``sg.grad(f)`` returns calls the generated ``grad_f`` directly (no Python
frame in between), with ``f``'s signature and a ``.source`` attribute holding its text, and
shows itself as ``<sourcegrad grad of f(x) wrt x>`` (``presentation``).
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from . import cache, callables, checking, pipeline, presentation, pytrees, specialisation
from .rules.registry import nondifferentiable
from .rules.support import as_gradient, is_float_leaf, refuse_misread, zeros_like_grad

Wrt = int | str | tuple


def stop_gradient(x: Any) -> Any:
    """Return ``x``; every transformation treats the result as a constant.

    ``d/dx (x * x) = 2x``, but with one factor held constant the derivative is that factor:

    >>> def f(x):
    ...     return x * sg.stop_gradient(x)
    >>> sg.grad(f)(3.0)
    3.0
    """
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
        checked = checking.wanted(check)
        if not checked and (shown := presentation.kept(compiled)) is not None:
            return shown  # asked again: as fast as it was before it was presented
        describe = _describing(fun, wrt, with_value, has_aux, checked)
        if checked:
            return presentation.present(checking.checked_gradient(
                compiled, fun, _wrt_names(fun, wrt)[0], single, with_value, has_aux), describe)
        return presentation.present(compiled, describe, __sourcegrad_function__=compiled)
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
    checked = checking.wanted(check)
    describe = _describing(fun, wrt, with_value, has_aux, checked)
    generated = compiled
    if checked:  # checked as the function it differentiates, arguments bound
        compiled = checking.checked_gradient(compiled, form.function, names, not tuple_out,
                                             with_value, has_aux)
    if as_asked:
        if form.plain:
            return presentation.present(compiled, describe, **(
                {} if checked else {"__sourcegrad_function__": generated}))
        return callables.Derivative(compiled, form, describe=describe)
    shape = callables.gradients_last
    if with_value:
        shape = callables.gradients_after_value
    elif has_aux:
        shape = callables.gradients_first
    return callables.Derivative(compiled, form, _from_tuple(picks, names), single, shape,
                                describe=describe)


def _describing(fun: Callable, wrt: Wrt, with_value: bool, has_aux: bool, checked: bool
                ) -> Callable[[], presentation.Description]:
    """What the derivative is, worked out when it is first shown."""
    kind = "value_and_grad" if with_value else "grad"
    return lambda: presentation.describe(kind, fun, wrt, has_aux=has_aux, checked=checked)


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

    The result shows itself as ``<sourcegrad grad of loss(w, b) wrt w>``, and in Jupyter as
    its generated source, highlighted; ``.source`` holds that text.

    The function returned is the general derivative (its ``.source``); the first call of
    each argument signature (shapes and dtypes) runs, and keeps for the next, a variant
    specialised to it, which ``.specialised_source(*args)`` shows (``specialisation``;
    ``SOURCEGRAD_SPECIALISE=0`` turns this off).

    ``d/dw sum((2w + b)**2) = 4 (2w + b)`` and ``d/db = 2 sum(2w + b)``:

    >>> def loss(w, b):
    ...     return np.sum((2.0 * w + b) ** 2)
    >>> sg.grad(loss)(np.array([1.0, 2.0]), 0.5)
    array([10., 18.])
    >>> sg.grad(loss, wrt=(0, "b"))(np.array([1.0, 2.0]), 0.5)
    (array([10., 18.]), 14.0)

    As a decorator (``d/dx x**3 = 3x**2``):

    >>> @sg.grad
    ... def slope(x):
    ...     return x ** 3
    >>> slope(2.0)
    12.0
    """
    if fun is None:
        return functools.partial(grad, wrt=wrt, has_aux=has_aux, check=check)
    return _generated(fun, wrt, with_value=False, has_aux=has_aux, check=check)


def value_and_grad(fun: Callable | None = None, wrt: Wrt = 0, has_aux: bool = False, *,
                   check: bool | None = None) -> Any:
    """Like ``grad``, returning ``(value, gradient)``; with ``has_aux``,
    ``((value, aux), gradient)``. ``check``: see ``grad``.

    >>> def loss(w, b):
    ...     return np.sum((2.0 * w + b) ** 2)
    >>> value, gradient = sg.value_and_grad(loss)(np.array([1.0, 2.0]), 0.5)
    >>> float(value), gradient
    (26.5, array([10., 18.]))
    """
    if fun is None:
        return functools.partial(value_and_grad, wrt=wrt, has_aux=has_aux, check=check)
    return _generated(fun, wrt, with_value=True, has_aux=has_aux, check=check)


def vjp(fun: Callable, *args: Any, has_aux: bool = False, check: bool | None = None
        ) -> tuple:
    """``(value, pullback)``: ``pullback(cotangent)`` gives one gradient per positional
    argument (``None`` for an argument that is not a float); with ``has_aux``, ``fun``
    returns ``(output, aux)`` and this returns ``(value, pullback, aux)``. ``check``: see
    ``grad``.

    The pullback of ``x ** n`` multiplies the cotangent by ``n x ** (n - 1)``; the integer
    ``n`` gets ``None``:

    >>> def power(x, n):
    ...     return x ** n
    >>> value, pullback = sg.vjp(power, np.array([1.0, 2.0, 3.0]), 2)
    >>> value
    array([1., 4., 9.])
    >>> pullback(np.array([1.0, 1.0, 0.5]))
    (array([2., 4., 3.]), None)
    """
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
    checked = checking.wanted(check)
    if checked:
        pullback = checking.checked_pullback(pullback, (forward, backward),
                                             checking.output_of(fun, has_aux), args, value)
    # made at each call, holding the saved values: not kept on the closure, where a
    # reference cycle would keep them until the garbage collector runs
    shown = presentation.Presented(pullback, lambda: presentation.describe(
        "pullback", fun, tuple(range(len(args))), has_aux=has_aux, checked=checked),
        source=backward.source)
    return (value, shown, aux) if has_aux else (value, shown)


def _is_float_like(value: Any) -> bool:
    """Does ``value`` carry a derivative: a float, an array of floats, or a structure with
    at least one such leaf?"""
    if isinstance(value, (np.ndarray, float, int)) or pytrees.is_leaf(value):
        return is_float_leaf(value)
    return any(is_float_leaf(leaf) for leaf in pytrees.tree_leaves(value))


def source(fun: Callable, wrt: Wrt = 0, mode: str = "reverse") -> str:
    """The generated derivative code of ``fun`` as Python source text.

    >>> def cube(x):
    ...     return x ** 3
    >>> print(sg.source(cube, mode="forward"))
    def jvp_cube(x, tangent_x):
        # return x ** 3
        cube_value = x ** 3
        tangent_cube_value = tangent_x * 3 * x ** 2
        return cube_value, tangent_cube_value
    <BLANKLINE>
    >>> sg.source(cube).splitlines()[0]
    'def grad_cube(x):'
    """
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
    by generated forward-mode code. ``check``: see ``grad``.

    ``d(x sin y) = sin(y) dx + x cos(y) dy``, at ``x = 2, y = 0`` along ``dx = dy = 1``:

    >>> def f(x, y):
    ...     return x * np.sin(y)
    >>> value, tangent = sg.jvp(f, (2.0, 0.0), (1.0, 1.0))
    >>> float(value), float(tangent)
    (0.0, 2.0)
    """
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
        _refuse_misread_tangent(tangent)
        if type(value) not in _ARRAYS and pytrees.has_records(value):  # built as dicts of fields
            tangent = as_gradient(tangent, value)
        return value, tangent

    _refuse_misread_constants(primals, form)
    result = run(tangents)
    if checking.wanted(check):
        moved = [t is not None and _is_float_like(x)
                 for x, t in zip(primals, tangents, strict=True)]
        checking.check_tangent(generated, fun, primals, moved, result[0], lambda u: run(u)[1])
    return result


def _refuse_misread_constants(primals: tuple, form: callables.Form) -> None:
    """An ``np.matrix`` or masked array among the primals, the arguments a partial or method
    binds, or a bound object's attributes (``self.M``) makes a scalar output's tangent
    silently wrong (no such type is left in it to notice): refused. (Globals and closure
    variables are refused where the function reads them: ``frontend/checks.py``.)"""
    for leaf in pytrees.tree_leaves((primals, form.bound, form.keywords)):
        refuse_misread(None, leaf)
        for attribute in getattr(leaf, "__dict__", {}).values():
            refuse_misread(None, attribute)


def _refuse_misread_tangent(tangent: Any) -> None:
    """A tangent computed with an ``np.matrix`` or a masked array (a global one) would be
    silently wrong: refused, as ``as_gradient`` refuses such a gradient."""
    if type(tangent) is np.ndarray or isinstance(tangent, (float, int, np.generic)):
        return  # the common case, at no cost
    for leaf in pytrees.tree_leaves(tangent):
        refuse_misread(leaf, None)


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
