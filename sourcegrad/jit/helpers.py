"""What each helper of ``rules/support.py`` becomes once its operands' shapes are known.

Generated code calls the helpers because the shapes are not known when the code is written:
``unbroadcast(g, x)`` sums ``g`` down to ``x``'s shape, which is nothing at all when the shapes
match. At the first call they are known, and each rule here gives the helper call's meaning
for those shapes as plain NumPy code (``g``, ``np.sum(g, axis=0)``, ``np.full((10,), g)``,
``g @ x2.T``), or ``None`` to keep the call (its compiled form, ``forms.py``, then serves).
Every replacement is valid for exactly the shapes and dtypes the rule was given, which is
what the caller guards on.

A rule also says what is known of the helper's result, whether it replaced the call or not.
"""

from __future__ import annotations

import ast
import inspect
import weakref
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from ..rules import support
from . import abstract as a
from .abstract import Abstract, Array, Number, Sequence

Operand = tuple[ast.expr, Abstract]


class Context(Protocol):
    """What a rule needs from the specialiser."""

    numba: bool  # the code is for Numba (which has no keepdims, no read-only views...)

    def np(self, attribute: str) -> ast.expr: ...
    def name_for(self, value: Any) -> ast.expr: ...
    def evaluate(self, expr: ast.expr) -> tuple[ast.expr, Abstract]: ...


Rule = Callable[[Context, dict[str, Operand]], tuple[ast.expr | None, Abstract]]
RULES: dict[Any, Rule] = {}


def rule(helper: Any) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        RULES[helper] = fn
        return fn
    return register


def signature_of(fn: Any) -> inspect.Signature:
    """``inspect.signature(fn)``, worked out once per function (the specialiser binds every
    helper and NumPy call it rewrites: making signatures was a fifth of its time), kept no
    longer than the function lives (a generated function keeps the user's alive)."""
    try:
        return _SIGNATURES[fn]
    except KeyError:
        found = _SIGNATURES[fn] = inspect.signature(fn)
        return found
    except TypeError:  # no weak reference to it (a ufunc, a builtin): they live forever
        found = _BUILTIN_SIGNATURES.get(fn)
        if found is None:
            found = _BUILTIN_SIGNATURES[fn] = inspect.signature(fn)
        return found


_SIGNATURES: weakref.WeakKeyDictionary[Any, inspect.Signature] = weakref.WeakKeyDictionary()
_BUILTIN_SIGNATURES: dict[Any, inspect.Signature] = {}


def bound_arguments(fn: Any, args: list | tuple, kwargs: dict[str, Any]
                    ) -> dict[str, Any] | None:
    """``signature_of(fn).bind(*args, **kwargs).arguments`` (a new dict), or ``None`` if
    the call does not bind, for a function that lives as long as the process (a helper, a
    NumPy function): which parameter each argument binds depends only on how many are
    passed and the keywords' names, so it is worked out once for each (binding through
    ``inspect`` every helper and NumPy call the specialiser rewrites took a tenth of its
    time)."""
    key = (fn, len(args), tuple(kwargs))
    try:
        plan = _PLANS[key]
    except KeyError:
        plan = _PLANS[key] = _plan(fn, len(args), tuple(kwargs))
    except TypeError:  # (unhashable)
        plan = _plan(fn, len(args), tuple(kwargs))
    if plan is None:
        return None
    return {name: _placed(where, args, kwargs) for name, where in plan}


# (function, number of positional arguments, keywords' names) -> each bound parameter's
# name and where its value comes from (``_plan``), or ``None``: such a call does not bind
_PLANS: dict[tuple[Any, int, tuple[str, ...]], tuple[tuple[str, Any], ...] | None] = {}


class _At(int):
    """Stands for the positional argument at this index while binding."""


class _Named(str):
    """Stands for the keyword argument of this name while binding."""


def _plan(fn: Any, count: int, names: tuple[str, ...]) -> tuple[tuple[str, Any], ...] | None:
    try:
        bound = signature_of(fn).bind(*[_At(i) for i in range(count)],
                                      **{k: _Named(k) for k in names})
    except TypeError:
        return None
    return tuple(bound.arguments.items())


def _placed(where: Any, args: list | tuple, kwargs: dict[str, Any]) -> Any:
    """The value a plan's entry stands for: an argument, or the tuple (``*args``) or dict
    (``**kwargs``) of those it collects."""
    if type(where) is _At:
        return args[where]
    if type(where) is _Named:
        return kwargs[where]
    if type(where) is tuple:
        return tuple(_placed(w, args, kwargs) for w in where)
    return {k: _placed(w, args, kwargs) for k, w in where.items()}


def apply(helper: Any, ctx: Context, args: list[Operand], kwargs: dict[str, Operand]
          ) -> tuple[ast.expr | None, Abstract]:
    """The helper's call specialised, or ``(None, what is known of its result)``."""
    fn = RULES.get(helper)
    if fn is None:
        return None, a.UNKNOWN
    bound = bound_arguments(helper, args, kwargs)
    if bound is None:
        return None, a.UNKNOWN
    return fn(ctx, bound)


# -- building code -------------------------------------------------------------------------------
def call(func: ast.expr, *args: ast.expr, **kwargs: ast.expr) -> ast.Call:
    return ast.Call(func=func, args=list(args),
                    keywords=[ast.keyword(arg=k, value=v) for k, v in kwargs.items()])


def method(receiver: ast.expr, name: str, *args: ast.expr) -> ast.Call:
    return call(ast.Attribute(value=receiver, attr=name, ctx=ast.Load()), *args)


def constant(value: Any) -> ast.expr:
    if isinstance(value, tuple):
        return ast.Tuple(elts=[constant(v) for v in value], ctx=ast.Load())
    return ast.Constant(value)


def dtype_expr(ctx: Context, dtype: np.dtype) -> ast.expr:
    """``np.float32`` for a dtype (as Numba and NumPy both read it)."""
    name = "bool_" if dtype == np.bool_ else dtype.name
    return ctx.np(name)


def _with_dtype(ctx: Context, func: str, args: list[ast.expr], dtype: np.dtype | None
                ) -> ast.expr:
    if dtype is None or dtype == np.float64:
        return call(ctx.np(func), *args)
    return call(ctx.np(func), *args, dtype_expr(ctx, dtype))


def _known(operand: Operand | None, default: Any = None) -> Any:
    """The value of a constant operand (an axis, ``keepdims``), or ``_NOT_KNOWN``."""
    if operand is None:
        return default
    value = operand[1]
    if isinstance(value, Number) and value.known:
        return value.value
    if value == a.NONE:
        return None
    if isinstance(value, Sequence) and value.items is not None and all(
            isinstance(i, Number) and i.known for i in value.items):
        return tuple(i.value for i in value.items)  # type: ignore[union-attr]
    return _NOT_KNOWN


_NOT_KNOWN = object()


def _shaped_like(x: Abstract, dtype: np.dtype | None, fresh: bool = True) -> Abstract:
    """What is known of a value with ``x``'s shape and the given dtype."""
    if isinstance(x, Number):
        return a.Number(float) if dtype is None or dtype.kind == "f" else a.UNKNOWN
    if isinstance(x, Array):
        return Array(x.shape, dtype, x.ndim, fresh=fresh)
    return a.UNKNOWN


# -- the rules -----------------------------------------------------------------------------------
@rule(support.unbroadcast)
def _unbroadcast(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    (g, ag), (_, ax) = bound["g"], bound["x"]
    if a.same_shape(ag, ax):
        return g, ag
    gshape, xshape = a.shape_of(ag), a.shape_of(ax)
    if gshape is None or xshape is None or not isinstance(ag, Array) or len(gshape) < len(
            xshape):
        return None, _shaped_like(ax, a.dtype_of(ag), fresh=False)
    return ctx.evaluate(summed_to(ctx, g, gshape, xshape))


@rule(support.unbroadcast_each)
def _unbroadcast_each(ctx: Context, bound: dict[str, Operand]
                      ) -> tuple[ast.expr | None, Abstract]:
    """``unbroadcast`` leaf by leaf (``as_gradient``'s adjoint): of an array or a number,
    ``unbroadcast`` itself; a list's has no compiled form."""
    (_, ax) = bound["x"]
    if not isinstance(ax, (Array, Number)):
        return None, a.UNKNOWN
    return _unbroadcast(ctx, {"g": bound["cotangent"], "x": bound["x"]})


def summed_to(ctx: Context, g: ast.expr, gshape: tuple[int, ...], xshape: tuple[int, ...]
              ) -> ast.expr:
    """``g`` summed over the axes broadcasting added or stretched to reach ``gshape`` from
    ``xshape``, one axis at a time (Numba sums over one axis, without ``keepdims``)."""
    if not xshape:
        return call(ctx.np("sum"), g)
    extra = len(gshape) - len(xshape)
    stretched = [extra + i for i, n in enumerate(xshape) if n == 1 and gshape[extra + i] != 1]
    for axis in sorted([*range(extra), *stretched], reverse=True):
        g = call(ctx.np("sum"), g, axis=constant(axis))
    return method(g, "reshape", constant(xshape)) if stretched else g


@rule(support.unreduce)
def _unreduce(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    (g, ag), (_, ax) = bound["g"], bound["x"]
    axis, keepdims = _known(bound.get("axis")), _known(bound.get("keepdims"), False)
    xshape, gshape = a.shape_of(ax), a.shape_of(ag)
    dtype = _spread_dtype(ag, ax)
    result = _shaped_like(ax, dtype)
    if xshape is None or axis is _NOT_KNOWN or keepdims is _NOT_KNOWN:
        return None, result
    if not xshape:
        return g, ag  # a number reduced is itself
    if axis is None:
        if gshape != ():
            return None, result
        if not ctx.numba:  # NumPy repeats one number without memory: a read-only view
            natural = np.dtype(np.float64) if isinstance(ag, Number) else a.dtype_of(ag)
            if dtype is not None and dtype != natural:
                g = call(ctx.np("asarray"), g, dtype_expr(ctx, dtype))
            return call(ctx.np("broadcast_to"), g, constant(xshape)), replace_fresh(
                result, False)
        return _with_dtype(ctx, "full", [constant(xshape), g], dtype), result
    if gshape is None:
        return None, result
    axes = sorted(int(i) % len(xshape) for i in np.atleast_1d(axis))
    if not keepdims:
        for i in axes:
            g = call(ctx.np("expand_dims"), g, constant(i))
    return call(ctx.np("broadcast_to"), g, constant(xshape)), replace_fresh(result, False)


def replace_fresh(value: Abstract, fresh: bool) -> Abstract:
    return Array(value.shape, value.dtype, value.ndim, fresh) if isinstance(
        value, Array) else value


def _spread_dtype(ag: Abstract, ax: Abstract) -> np.dtype | None:
    """The dtype ``unreduce`` gives: ``g``'s, or for a Python float ``x``'s float dtype."""
    if isinstance(ag, Number) and ag.kind is float:
        xdtype = a.dtype_of(ax)
        return xdtype if xdtype is not None and xdtype.kind == "f" else np.dtype(np.float64)
    return a.dtype_of(ag)


@rule(support.shape_only)
def _shape_only(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    x, ax = bound["x"]
    return x, ax  # the array itself: what reads it only asks its shape, now known


def _sum_all(*values: Any) -> Any:
    return sum(values[1:], values[0])


@rule(support.shape_of_elementwise)
def _shape_of_elementwise(ctx: Context, bound: dict[str, Operand]
                          ) -> tuple[ast.expr | None, Abstract]:
    operands = [o for _, o in bound["operands"]]
    result = a.arithmetic(_sum_all, operands)
    if not ctx.numba or not isinstance(result, Array) or result.shape is None or (
            result.dtype is None):
        return None, result
    # only its shape and dtype are read: an array of them, never filled in
    return _with_dtype(ctx, "empty", [constant(result.shape)], result.dtype), result


@rule(support.scalar_seed)
def _scalar_seed(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    _, av = bound["value"]
    if isinstance(av, Number) and av.kind is float or isinstance(av, Array) and (
            av.scalar and av.dtype == np.float64):
        return ast.Constant(1.0), Number(float)
    return None, a.fresh(av) if isinstance(av, Array) else a.UNKNOWN


@rule(support.as_gradient)
def _as_gradient(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    (g, ag), (_, ax) = bound["g"], bound["x"]
    if isinstance(ax, Number) and ax.kind is not bool:
        # (a "float" may yet be a 0-d array, which NumPy gives for np.where of numbers)
        if isinstance(ag, Number) and ag.kind in (int, float) or isinstance(ag, Array) and (
                ag.shape == () and ag.dtype is not None and ag.dtype.kind in "iuf"):
            return call(ctx.name_for(float), g), Number(float)
        return None, Number(float)
    if not isinstance(ax, Array) or ax.scalar or ax.shape is None or ax.dtype is None:
        return None, a.UNKNOWN
    dtype = a.grad_dtype(ax)
    result = Array(ax.shape, dtype, fresh=True)
    if isinstance(ag, Array) and ag.shape == ax.shape and ag.dtype is not None and not (
            ag.scalar):
        if ag.dtype != dtype:
            return method(g, "astype", dtype_expr(ctx, dtype)), result
        # a fresh array is returned as it is; anything else (a view, an argument) is copied
        return (g if ag.fresh else method(g, "copy")), result
    if a.shape_of(ag) == () and ax.shape and (isinstance(ag, Number) or ag.dtype == dtype):
        return _with_dtype(ctx, "full", [constant(ax.shape), g], dtype), result
    return None, result


@rule(support.row_sparse_zeros)
def _row_sparse_zeros(ctx: Context, bound: dict[str, Operand]
                      ) -> tuple[ast.expr | None, Abstract]:
    """Compiled code keeps the dense zero (no dense zero per call to avoid once the call is
    inlined into a loop of machine code); NumPy code keeps the rows (a dense zero per call
    made word2vec's gradient 3.6x its hand-written one, where rows make it 0.8x)."""
    if not ctx.numba:
        return None, a.UNKNOWN
    return _zeros_like_grad(ctx, bound)


@rule(support.zeros_like_grad)
def _zeros_like_grad(ctx: Context, bound: dict[str, Operand]
                     ) -> tuple[ast.expr | None, Abstract]:
    _, ax = bound["x"]
    if a.knows_entries(ax):
        return None, a.Cotangent(ax)  # made as before; its integer leaves' entries dropped
    if isinstance(ax, Number) and ax.kind is not bool:
        return ast.Constant(0.0), Number(float)
    if isinstance(ax, Array) and ax.shape is not None and ax.dtype is not None and (
            not ax.scalar):
        dtype = a.grad_dtype(ax)
        return _with_dtype(ctx, "zeros", [constant(ax.shape)], dtype), Array(
            ax.shape, dtype, fresh=True)
    return None, a.UNKNOWN


@rule(support.zeros_like_grad_with)
def _zeros_like_grad_with(ctx: Context, bound: dict[str, Operand]
                          ) -> tuple[ast.expr | None, Abstract]:
    """The entries at the structure's integer leaves go (``as_gradient`` makes them
    ``None``), and with them the work of computing them."""
    (_, ax), (parts, _) = bound["x"], bound["parts"]
    if not a.knows_entries(ax):
        return None, a.UNKNOWN
    cotangent = a.Cotangent(ax)
    if not isinstance(parts, ast.Dict) or not any(
            isinstance(k, ast.Constant) and cotangent.drops(k.value) for k in parts.keys):
        return None, cotangent
    kept = [(k, v) for k, v in zip(parts.keys, parts.values, strict=True)
            if not (isinstance(k, ast.Constant) and cotangent.drops(k.value))]
    x, _ = bound["x"]
    return call(ctx.name_for(support.zeros_like_grad_with), x, ast.Dict(
        keys=[k for k, _ in kept], values=[v for _, v in kept])), cotangent


@rule(support.no_cotangent)
def _no_cotangent(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    return bound["x"]  # the value itself


@rule(support.private_copy)
def _private_copy(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    g, ag = bound["g"]
    if isinstance(ag, Array) and not ag.scalar:
        return method(g, "copy"), a.fresh(ag)
    if isinstance(ag, Sequence) and ag.is_list:
        return call(ctx.name_for(list), g), ag
    return None, ag


@rule(support.written_into)
def _written_into(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    """Into a float array: the cotangent itself (a copy of an array's part); into an
    integer one: zeros."""
    _, into = bound["into"]
    dtype = into.dtype if isinstance(into, Array) else None
    if dtype is None:
        return None, a.UNKNOWN
    d, ad = bound["d"]
    if support.discrete_dtype(dtype):
        return _zero_derivative(ctx, bound["d"])
    if isinstance(ad, Array) and not ad.scalar:
        return method(d, "copy"), a.fresh(ad)
    if isinstance(ad, Number) or isinstance(ad, Array) and ad.scalar:
        return d, ad  # a number, or an element: a copy already
    return None, a.UNKNOWN  # (it may be a view: the call copies it)


@rule(support.through_cast)
def _through_cast(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    """A cast to a float dtype: the derivative itself; to an integer one: zeros."""
    _, dtype = bound["dtype"]
    if not isinstance(dtype, a.Constant):
        return None, a.UNKNOWN
    if support.discrete_dtype(dtype.value):
        return _zero_derivative(ctx, bound["d"])
    return bound["d"]


def _zero_derivative(ctx: Context, d: Operand) -> tuple[ast.expr | None, Abstract]:
    """A zero in place of the derivative ``d``."""
    _, ad = d
    if isinstance(ad, Array) and ad.scalar or isinstance(ad, Number):  # an element's
        return ast.Constant(0.0), Number(float)
    return _zeros_like_grad(ctx, {"x": d})


@rule(support.unstack_like)
def _unstack_like(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    g, ag = bound["g"]
    _, aobj = bound["obj"]
    if isinstance(ag, Array) and isinstance(aobj, Array) and ag.shape == aobj.shape:
        return g, ag  # an array's cotangent, already of its shape
    return None, a.UNKNOWN


def _ndims(*operands: Abstract) -> list[int | None]:
    return [o.ndim if isinstance(o, Array) else None for o in operands]


@rule(support.matmul_vjp_x1)
def _matmul_vjp_x1(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    (g, _), (_, ax1), (x2, ax2) = bound["g"], bound["x1"], bound["x2"]
    n1, n2 = _ndims(ax1, ax2)
    # a stack of matrices times one matrix: ``g`` has ``x1``'s leading axes (nothing
    # broadcasts against a matrix), and ``g @ x2.T`` is ``x1``'s cotangent (Numba's ``@``
    # takes vectors and matrices only)
    if n2 == 2 and (n1 in (1, 2) or n1 is not None and n1 > 2 and not ctx.numba):
        return ctx.evaluate(ast.BinOp(left=g, op=ast.MatMult(),
                                      right=ast.Attribute(value=x2, attr="T", ctx=ast.Load())))
    if n2 == 1 and n1 == 2:
        return ctx.evaluate(call(ctx.np("outer"), g, x2))
    return None, _shaped_like(ax1, None)


@rule(support.matmul_vjp_x2)
def _matmul_vjp_x2(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    (g, _), (x1, ax1), (_, ax2) = bound["g"], bound["x1"], bound["x2"]
    n1, n2 = _ndims(ax1, ax2)
    if n1 == 2 and n2 in (1, 2):
        return ctx.evaluate(ast.BinOp(left=ast.Attribute(value=x1, attr="T", ctx=ast.Load()),
                                      op=ast.MatMult(), right=g))
    if n1 == 1 and n2 == 2:
        return ctx.evaluate(call(ctx.np("outer"), x1, g))
    return None, _shaped_like(ax2, None)


@rule(support.matmul_over_steps)
def _matmul_over_steps(ctx: Context, bound: dict[str, Operand]
                       ) -> tuple[ast.expr | None, Abstract]:
    (xs, axs), (w, aw) = bound["xs"], bound["w"]
    if not (isinstance(axs, Array) and isinstance(aw, Array) and axs.shape is not None
            and aw.shape is not None and len(axs.shape) >= 2 and len(aw.shape) in (1, 2)
            and axs.shape[-1] == aw.shape[0]):
        return None, a.UNKNOWN
    if not ctx.numba or len(axs.shape) == 2:  # ``xs @ w``, which Numba has for matrices
        return ctx.evaluate(ast.BinOp(left=xs, op=ast.MatMult(), right=w))
    dtype = None if axs.dtype is None or aw.dtype is None else np.result_type(axs.dtype,
                                                                              aw.dtype)
    return None, Array(axs.shape[:-1] + aw.shape[1:], dtype, fresh=True)


@rule(support.enough_steps)
def _enough_steps(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    """``len(gs) >= k`` once the steps' shapes say how many steps make enough elements. For
    Numba, never: its products in the loop cost more time than they save memory (the RNN's
    compiled gradient took about a third longer), so compiled code multiplies the steps
    after the loop only (``numba_spelling`` drops the ``if False:``)."""
    if ctx.numba:
        return ast.Constant(False), Number(bool, False)
    (gs, ags), (_, ax1s) = bound["gs"], bound["x1s"]
    sizes = [a.size(s.item) if isinstance(s, Sequence) and s.is_list and s.item is not None
             else None for s in (ags, ax1s)]
    if None in sizes or not sum(sizes):
        return None, Number(bool)
    steps = -(-support._STEPS_PRODUCT_ELEMENTS // sum(sizes))  # (rounded up)
    enough = ast.Compare(left=call(ctx.name_for(len), gs), ops=[ast.GtE()],
                         comparators=[ast.Constant(steps)])
    return enough, Number(bool)


@rule(support.reduced_count)
def _reduced_count(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    (_, ax), (_, ans) = bound["x"], bound["ans"]
    n, m = a.size(ax), a.size(ans)
    if n is None or m is None:
        return None, Number(int)
    count = n // max(m, 1)
    return ast.Constant(count), Number(int, count)


@rule(support.zero_slots)
def _zero_slots(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    """An array's slots are its zeros (a list's stay empty, ``None``, as the helper makes
    them)."""
    if isinstance(bound["x"][1], Array | a.Record | Sequence):
        return _zeros_like_grad(ctx, bound)
    return None, a.UNKNOWN


@rule(support.element_count)
def _element_count(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    size = a.size(bound["x"][1])
    if size is None:
        return None, Number(int)
    return ast.Constant(size), Number(int, size)


@rule(support.add_grads)
def _add_grads(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    (x, ax), (y, ay) = bound["a"], bound["b"]
    if isinstance(ax, Number | Array) and isinstance(ay, Number | Array):
        return ctx.evaluate(ast.BinOp(left=x, op=ast.Add(), right=y))
    return None, a.join(ax, ay)


@rule(support.broadcast_like)
def _broadcast_like(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    (t, at), (_, ans) = bound["t"], bound["ans"]
    if a.same_shape(at, ans):
        return t, at
    return None, _shaped_like(ans, a.dtype_of(at), fresh=False)


@rule(support.tie_weights)
def _tie_weights(ctx: Context, bound: dict[str, Operand]) -> tuple[ast.expr | None, Abstract]:
    (x, ax), (ans, _) = bound["x"], bound["ans"]
    axis, keepdims = _known(bound.get("axis")), _known(bound.get("keepdims"), False)
    result = _shaped_like(ax, a.grad_dtype(ax))
    if not ctx.numba:  # the helper, in NumPy, compares once; spelt out, twice
        return None, result
    if not isinstance(ax, Array) or not ax.shape or ax.dtype != np.float64 or (
            keepdims is _NOT_KNOWN) or not (axis is None or isinstance(axis, int)):
        return None, result
    if axis is not None and not keepdims:
        ans = call(ctx.np("expand_dims"), ans, constant(axis % len(ax.shape)))
    winners = ast.Compare(left=x, ops=[ast.Eq()], comparators=[ans])
    if axis is None:
        count = call(ctx.np("sum"), winners)
    else:
        count = call(ctx.np("expand_dims"), call(ctx.np("sum"), winners, axis=constant(axis)),
                     constant(axis % len(ax.shape)))
    return ctx.evaluate(ast.BinOp(left=winners, op=ast.Div(), right=count))


@rule(support.spread_over_ties)
def _spread_over_ties(ctx: Context, bound: dict[str, Operand]
                      ) -> tuple[ast.expr | None, Abstract]:
    keywords = {k: bound[k] for k in ("axis", "keepdims") if k in bound}
    spread, spread_value = apply(support.unreduce, ctx, [bound["g"], bound["x"]], keywords)
    weights, _ = apply(support.tie_weights, ctx, [bound["x"], bound["ans"]], keywords)
    if spread is None or weights is None:
        return None, spread_value
    return ctx.evaluate(ast.BinOp(left=spread, op=ast.Mult(), right=weights))
