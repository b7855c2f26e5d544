"""Jacobians, Hessians and Hessian-vector products, built from the generated code.

Running one: ``jacobian`` runs ``jvp_f`` once per input element (forward mode) or the split
``forward_f`` / ``backward_f`` once per output element (reverse mode), whichever needs fewer
runs. ``hessian`` and ``hvp`` are forward over reverse: the forward transformer reads the
generated ``grad_f`` (its source is registered with ``linecache``) like any user function,
and differentiates it with the rules ``rules/support_rules.py`` gives the helpers it calls.

Differentiating one again. A result of these functions is a ``Transformed``: calling it runs
the code above, and everything that *reads* it sees its **twin**, a generated function with
readable source that computes the same thing from generated code sourcegrad differentiates:

    def jacobian_f(x, w):
        value = f(x, w)
        columns_x = []
        for unit in unit_tangents(x):
            pair = jvp_f_x(x, w, tangent_x=unit)
            columns_x.append(pair[1])
        return np.reshape(np.stack(columns_x, axis=-1), np.shape(value) + np.shape(x))

The twin is ``__wrapped__`` (what ``inspect.unwrap``, ``inspect.getsource`` and so
``parse_function`` and the cache follow) and ``__sourcegrad_function__`` (what the resolver
follows when a differentiated function calls the result). So ``sg.jacobian(sg.jacobian(f))``
is forward mode over ``jacobian_f``, that is over ``jvp_f_x`` (forward over forward),
``sg.grad`` of a function calling ``sg.hessian(f)``'s result differentiates ``hessian_f``,
and so on to any depth: a twin calls the results it is built from by name, and they
differentiate through their own twins. Never through the user's ``f``, which computes
something else (``functools.wraps`` made ``sg.jacobian(sg.jacobian(f))`` the first Jacobian).

The twin is made on first use (differentiating the result transforms ``f`` in forward mode,
which calling it in reverse mode need not). Any other transformation that returns a Python
wrapper should be a ``Transformed`` too, with a twin that computes what it computes.
"""

from __future__ import annotations

import ast
import functools
import inspect
import keyword
from collections.abc import Callable
from typing import Any

import numpy as np

from . import api, callables, pipeline, pytrees
from .codegen.clone import clone
from .compile import compile_function
from .forward_mode import jvp_function
from .frontend import forms
from .frontend.source import parse_function
from .presentation import Description, Presentable, Presented, describe
from .rules.support import _grad_dtype as grad_dtype
from .rules.support import refuse_misread, unit_tangents


class Transformed(Presentable):
    """What a transformation returned: ``run`` computes it; ``twin()`` makes (once) the
    generated function that computes the same thing and that sourcegrad can read and
    differentiate (see the module docstring). Shown as ``kind`` of ``fun`` with respect to
    ``wrt`` (``presentation``)."""

    def __init__(self, run: Callable[..., Any], fun: Callable, kind: str, wrt: api.Wrt,
                 twin: Callable[[], Any], source: Callable[[], str] | None = None,
                 has_aux: bool = False) -> None:
        self._describe = _describing(kind, fun, wrt, has_aux)
        self._run = run
        self._make_twin = twin
        self._twin: Any = None
        self._source = source
        self.fun = fun  # what was transformed
        self.kind = kind  # "jacobian", "hessian" or "hvp"
        self.__name__ = self.__qualname__ = f"{kind}_{_named(fun)}"
        self.__module__ = getattr(fun, "__module__", None)  # type: ignore[assignment]
        self.__doc__ = getattr(fun, "__doc__", None)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._run(*args, **kwargs)

    def twin(self) -> Any:
        if self._twin is None:
            self._twin = self._make_twin()
        return self._twin

    @property
    def __wrapped__(self) -> Any:  # read by inspect.unwrap
        return self.twin()

    @property
    def __sourcegrad_function__(self) -> Any:  # read by the resolver
        return self.twin()

    @property
    def __signature__(self) -> inspect.Signature:  # read by inspect
        return inspect.signature(self._make_signature())

    def _make_signature(self) -> Any:
        return self.fun if self.kind != "hvp" else self.twin()

    @property
    def source(self) -> str:
        """The generated code that computes it: the derivative code it runs when there is
        one (``jvp`` of ``grad_f`` for ``hessian``/``hvp``), else the twin's."""
        return self._source() if self._source is not None else self.twin().source


def _forward_jacobian(generated: Any, param: str, args: tuple, argnum: int) -> np.ndarray:
    """The Jacobian (or, of ``grad_f``, the Hessian) with respect to an array or float
    argument, in the argument's float dtype (float32 in, float32 out, as in JAX)."""
    tangent_name = generated.tangent_params[param]
    dtype = grad_dtype(args[argnum])
    columns = [np.asarray(_not_misread(generated(*args, **{tangent_name: unit})[1]),
                          dtype=dtype)
               for unit in unit_tangents(args[argnum])]
    value_shape = columns[0].shape if columns else np.shape(generated(  # an empty argument
        *args, **{tangent_name: np.zeros(np.shape(args[argnum]), dtype)})[0])
    stacked = np.stack(columns, axis=-1) if columns else np.zeros(value_shape + (0,), dtype)
    return np.reshape(stacked, value_shape + np.shape(args[argnum]))


def _reverse_jacobian(fun: Callable, param: str, args: tuple, argnum: int,
                      has_aux: bool = False) -> np.ndarray:
    """As ``_forward_jacobian``, one pullback per output element (each seeded in the
    output's float dtype)."""
    forward, backward = pipeline.split_functions(fun, (param,), has_aux)
    value, saved = forward(*args)
    if has_aux:
        value = value[0]
    dtype, shape = grad_dtype(args[argnum]), np.shape(args[argnum])
    rows = [np.broadcast_to(np.asarray(_not_misread(backward(unit, saved)[0]), dtype=dtype),
                            shape)
            for unit in unit_tangents(np.asarray(value))]
    if not rows:
        return np.zeros(np.shape(value) + shape, dtype)
    return np.reshape(np.stack(rows), np.shape(value) + shape)


def _not_misread(derivative: Any) -> Any:
    """``derivative``, unless the function computed it with an ``np.matrix`` or a masked
    array (a global one), which makes it silently wrong: refused (``refuse_misread``)."""
    if type(derivative) is not np.ndarray:
        refuse_misread(derivative, None)
    return derivative


def _tree_jacobian(fun: Callable, args: tuple, argnum: int) -> Any:
    """The Jacobian with respect to a structured argument, or of a structured output: one
    forward-mode run per element of the argument's float leaves (``pytrees``)."""
    def tangent_out(unit: Any) -> Any:
        tangents = [None] * len(args)
        tangents[argnum] = unit
        return api.jvp(fun, args, tangents)[1]

    return pytrees.jacobian_by_tangents(tangent_out, args[argnum], fun(*args))


def _array_argument(fun: Callable, x: Any, param: str) -> None:
    refuse_misread(None, x)  # an np.matrix, a masked or structured array
    if isinstance(x, bool) or not isinstance(x, (float, int, np.ndarray, np.generic)):
        raise TypeError(f"sg.jacobian and sg.hessian differentiate with respect to an array or "
                        f"a float; {fun.__name__}'s argument {param!r} is a "
                        f"{type(x).__name__}")


def jacobian(fun: Callable, wrt: api.Wrt = 0, mode: str | None = None,
             has_aux: bool = False) -> Callable[..., Any]:
    """A function returning the Jacobian of ``fun``'s (array) output with respect to the
    argument(s) ``wrt``, shaped ``out.shape + arg.shape``. ``mode=None`` picks forward mode
    when the argument has fewer elements than the output, reverse mode otherwise. With
    ``has_aux``, ``fun`` returns ``(output, aux)`` and this returns ``(jacobian, aux)``.

    The rows are the gradients of ``x0 x1`` and ``x0 + x1``:

    >>> def f(x):
    ...     return np.array([x[0] * x[1], x[0] + x[1]])
    >>> sg.jacobian(f)(np.array([2.0, 3.0]))
    array([[3., 2.],
           [1., 1.]])
    """
    if mode not in (None, "forward", "reverse"):
        raise ValueError(f"mode must be None, 'forward' or 'reverse'; got {mode!r}")
    inner = _of_function(fun, wrt)  # a partial, a method...: its function's, bound
    if inner is not None:
        return _bound(jacobian(inner[0], inner[1], mode, has_aux), inner[2],
                      _describing("jacobian", fun, wrt, has_aux))
    names, single = api._wrt_names(fun, wrt)
    params = pipeline.parameter_names(fun)

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
            # a derivative differentiated again: forward mode, which reverse mode over
            # generated code that writes into its arrays may refuse
            chosen = mode or ("forward" if isinstance(fun, Transformed)
                              or np.size(args[argnum]) < np.size(value) else "reverse")
            if chosen == "forward":
                out.append(_forward_jacobian(jvp_function(fun, (param,), has_aux), param, args,
                                             argnum))
            else:
                out.append(_reverse_jacobian(fun, param, args, argnum, has_aux))
        result = out[0] if single else tuple(out)
        return (result, aux) if has_aux else result

    return Transformed(jacobian_fun, fun, "jacobian", wrt,
                       lambda: _jacobian_twin(fun, names, single, f"jacobian_{_named(fun)}",
                                              has_aux), has_aux=has_aux)


def _describing(kind: str, fun: Callable, wrt: api.Wrt, has_aux: bool = False
                ) -> Callable[[], Description]:
    """What a result is, worked out when it is first shown."""
    return lambda: describe(kind, fun, wrt, has_aux=has_aux)


def _named(fun: Callable) -> str:
    """A name generated code can use for ``fun`` (a lambda's is the name it is assigned)."""
    return forms.identifier(fun)


def _of_function(fun: Callable, wrt: api.Wrt) -> tuple[Any, Any, Any] | None:
    """For a partial, bound method or callable instance: ``(its function, wrt as that
    function's parameter names, the form)``; ``None`` for a plain function."""
    form = callables.form_of(fun)
    picks, single = form.picks(wrt)
    if any(p.index is not None or p.key is not None for p in picks):
        raise TypeError(f"sg.jacobian, sg.hessian and sg.hvp differentiate with respect to "
                        f"named parameters; {form.label} gets this one through *args or "
                        f"**kwargs (wrt={wrt!r}). Name it as a parameter.")
    if form.plain and (form.function is fun or isinstance(fun, Transformed)):
        return None  # (a Transformed is read through its twin: see the module docstring)
    names = tuple(p.param for p in picks)
    return form.function, names[0] if single else names, form


def _bound(made: Callable, form: Any, description: Callable[[], Description]) -> Callable:
    """``made`` (of the form's function) called as the form is: its arguments bound, those
    bound by keyword passed in their places (the Jacobian functions take positions only);
    shown by ``description``."""
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
    # differentiated again, it is the made function with the form's arguments bound
    call.__sourcegrad_function__ = functools.partial(made, *form.bound, **form.keywords)
    return Presented(call, description)


def _one_argument(fun: Callable, wrt: api.Wrt, what: str) -> str:
    names, single = api._wrt_names(fun, wrt)
    if not single:
        raise TypeError(f"sg.{what} takes one argument to differentiate with respect to (an int "
                        f"or a str); got wrt={wrt!r}")
    return names[0]


def _gradient_function(fun: Callable, param: str) -> Any:
    return api.grad(fun, wrt=param, check=False)  # the generated code itself, to read


def hessian(fun: Callable, wrt: api.Wrt = 0) -> Transformed:
    """A function returning the Hessian of ``fun``'s scalar output with respect to the
    argument ``wrt``, shaped ``arg.shape + arg.shape``: forward mode over ``grad_f``. For an
    output that is an array, the Jacobian of the Jacobian, ``out.shape + arg.shape +
    arg.shape``, as in JAX.

    For ``x0**2 x1`` the second derivatives are ``2 x1``, ``2 x0`` and ``0``:

    >>> def f(x):
    ...     return x[0] ** 2 * x[1]
    >>> sg.hessian(f)(np.array([1.0, 3.0]))
    array([[6., 2.],
           [2., 0.]])
    """
    inner = _of_function(fun, wrt)
    if inner is not None:
        return _bound(hessian(inner[0], inner[1]), inner[2], _describing("hessian", fun, wrt))
    param = _one_argument(fun, wrt, "hessian")
    argnum = pipeline.parameter_names(fun).index(param)
    tangent_code = jvp_function(_gradient_function(fun, param), (param,))
    first = jacobian(fun, wrt=param)
    second = jacobian(first, wrt=param, mode="forward")

    def hessian_fun(*args: Any) -> np.ndarray:
        if not pytrees.is_leaf(args[argnum]):
            return _tree_jacobian(api.grad(fun, wrt=param), args, argnum)
        _array_argument(fun, args[argnum], param)
        if np.ndim(fun(*args)) != 0:  # an array output: the Jacobian of its Jacobian
            return second(*args)
        return _forward_jacobian(tangent_code, param, args, argnum)

    return Transformed(hessian_fun, fun, "hessian", param,
                       lambda: _jacobian_twin(first, (param,), True, f"hessian_{_named(fun)}"),
                       source=lambda: tangent_code.source)


def hvp(fun: Callable, wrt: api.Wrt = 0) -> Transformed:
    """A function of ``(*args, v)`` returning the Hessian of ``fun`` (with respect to
    ``wrt``) times ``v``: one run of forward mode over ``grad_f``, no Hessian formed.

    The Hessian of ``x0**2 x1`` (see ``hessian``) times ``(1, 0)``, its first column:

    >>> def f(x):
    ...     return x[0] ** 2 * x[1]
    >>> sg.hvp(f)(np.array([1.0, 3.0]), np.array([1.0, 0.0]))
    array([6., 2.])
    """
    inner = _of_function(fun, wrt)
    if inner is not None:
        if inner[2].keywords:
            raise TypeError("sg.hvp of a functools.partial with keyword arguments: bind them "
                            "positionally, or pass them in the call")
        return _bound(hvp(inner[0], inner[1]), inner[2], _describing("hvp", fun, wrt))
    param = _one_argument(fun, wrt, "hvp")
    tangent_code = jvp_function(_gradient_function(fun, param), (param,))
    tangent_name = tangent_code.tangent_params[param]

    def hvp_fun(*args_and_v: Any) -> Any:
        *args, v = args_and_v
        return tangent_code(*args, **{tangent_name: v})[1]

    return Transformed(hvp_fun, fun, "hvp", param,
                       lambda: _hvp_twin(fun, param, tangent_code),
                       source=lambda: tangent_code.source)


# -- the twins: generated functions computing what a result computes ------------------------
def _jacobian_twin(fun: Callable, names: tuple[str, ...], single: bool, name: str,
                   has_aux: bool = False) -> Any:
    """``jacobian_f`` (see the module docstring): for each parameter in ``names``, the
    tangents of ``jvp_f`` along one-hot directions, stacked into ``out + arg``; with
    ``has_aux``, ``(jacobian, aux)``."""
    header = _Header(fun, name)
    value = header.fresh("value")
    aux = header.fresh("aux") if has_aux else None
    lines = [f"    {value + ', ' + aux if aux else value} = {header.call(header.callee)}"]
    results = []
    for param in names:
        code = jvp_function(fun, (param,), has_aux)
        jvp_name = header.helper(f"jvp_{_named(fun)}_{param}", code)
        columns, unit, pair = (header.fresh(f"columns_{param}"), header.fresh("unit"),
                               header.fresh("pair"))
        lines += [f"    {columns} = []",
                  f"    for {unit} in unit_tangents({param}):",
                  f"        {pair} = {header.call(jvp_name, code.tangent_params[param], unit)}",
                  f"        {columns}.append({pair}[1])"]
        results.append(f"np.reshape(np.stack({columns}, axis=-1), "
                       f"np.shape({value}) + np.shape({param}))")
    returned = results[0] if single else ", ".join(results) + ("," if len(results) == 1 else "")
    if aux:
        returned = f"({returned}), {aux}"
    lines.append(f"    return {returned}")
    return header.compile(lines)


def _hvp_twin(fun: Callable, param: str, tangent_code: Any) -> Any:
    """``hvp_f(..., v)``: the tangent of ``grad_f`` along ``v``."""
    header = _Header(fun, f"hvp_{_named(fun)}")
    vector = header.fresh("v")
    header.add_parameter(vector)
    jvp_name = header.helper(f"jvp_grad_{_named(fun)}", tangent_code)
    pair = header.fresh("pair")
    call = header.call(jvp_name, tangent_code.tangent_params[param], vector)
    return header.compile([f"    {pair} = {call}", f"    return {pair}[1]"])


class _Header:
    """The ``def`` line of a twin (``fun``'s parameters as written), names that do not
    collide with them, and the functions the twin calls."""

    def __init__(self, fun: Callable, name: str) -> None:
        self.fun = fun
        self.name = name
        self.parsed = parse_function(fun)
        self.args = clone(self.parsed.tree.args)
        for a in self.args.posonlyargs + self.args.args + self.args.kwonlyargs:
            a.annotation = None
        self.taken = {a.arg for a in self.args.posonlyargs + self.args.args
                      + self.args.kwonlyargs} | {"np", "unit_tangents", name}
        self.helpers: dict[str, Any] = {"np": np, "unit_tangents": unit_tangents}
        self.callee = self.helper(_named(fun), fun)

    def fresh(self, base: str) -> str:
        if keyword.iskeyword(base):  # an anonymous lambda's name
            base = f"{base}_"
        candidate, n = base, 1
        while candidate in self.taken:
            n += 1
            candidate = f"{base}_{n}"
        self.taken.add(candidate)
        return candidate

    def helper(self, base: str, value: Any) -> str:
        name = self.fresh(base)
        self.helpers[name] = value
        return name

    def add_parameter(self, name: str) -> None:
        """A last positional parameter (``v`` of ``hvp``); a default when those before have
        one (only the source needs it: the twin is always called with every argument)."""
        self.args.args.append(ast.arg(arg=name))
        if self.args.defaults:
            self.args.defaults.append(ast.Constant(None))

    def call(self, callee: str, tangent: str | None = None, value: str | None = None) -> str:
        """``callee(x, w, k=k)``: the twin's own arguments passed on, and a tangent."""
        positional = [a.arg for a in self.parsed.tree.args.posonlyargs
                      + self.parsed.tree.args.args]
        keywords = [f"{a.arg}={a.arg}" for a in self.parsed.tree.args.kwonlyargs]
        if tangent is not None:
            keywords.append(f"{tangent}={value}")
        return f"{callee}({', '.join(positional + keywords)})"

    def compile(self, body: list[str]) -> Any:
        text = "\n".join([f"def {self.name}({ast.unparse(self.args)}):", *body]) + "\n"
        target = self.parsed.fn
        defaults = target.__defaults__
        if self.args.defaults and len(self.args.defaults) > len(defaults or ()):
            defaults = (*(defaults or ()), None)
        twin = compile_function(text, self.name, target.__globals__, {}, self.helpers,
                                defaults, target.__kwdefaults__)
        twin.source = text
        twin.__module__ = target.__module__
        return twin
