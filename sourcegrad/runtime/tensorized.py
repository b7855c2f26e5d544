"""A rule's VJP evaluated on tensors, recording its own graph: ``create_graph=True``.

With ``create_graph``, PyTorch runs each node's backward as ordinary recorded operations, so
the gradient it returns has a history of its own (gradients of gradients, Hessian-vector
products, gradient penalties). sourcegrad does the same with the rule table: a rule's VJP
is one expression, compiled once more with every call in it going through the runtime's
dispatch (``_call``): a primitive with a rule (``np.sum``, ``unbroadcast``...) is recorded
as a node whose backward is *its* rule, a function without derivative (``np.shape``) runs
on the arrays. Operators and indexing are the tensors' own. No derivative is written twice.

A helper of ``rules/support.py`` without a rule of its own (``ungather``, ``kron_vjp_a``,
``product_of_others``...) is what the transformer differentiates from its source, as a
user function; here its whole body is compiled the same way (``tensorized_helper``), so the
operations inside it are recorded one by one. Run on tensors as it is, it would lose the
gradient wherever NumPy turns a tensor into an array (``np.asarray(a)``, ``astype``).
"""

from __future__ import annotations

import ast
import builtins
import functools
import inspect
import math
import textwrap
from collections.abc import Callable
from types import FunctionType
from typing import Any

import numpy as np

from ..codegen.clone import clone
from ..rules import support
from ..rules.methods import ARGUMENT_RETURNING, ATTRIBUTES, METHODS, NONDIFF_METHODS
from ..rules.registry import is_nondifferentiable, lookup, rule_signature, shared_rule_expression
from .tensor import Tensor

_MODULES = frozenset({"np", "math"})


@functools.cache
def tensorized(vjp: FunctionType) -> Callable[..., Any]:
    """``vjp`` with its calls, method calls and attributes dispatched on tensors."""
    expr = _Dispatched().visit(clone(shared_rule_expression(vjp)))
    params = [p.replace(default=p.empty) for p in rule_signature(vjp).parameters.values()]
    header = f"def {vjp.__name__}{rule_signature(vjp).replace(parameters=params)}: pass"
    fdef = ast.parse(header).body[0]
    fdef.body = [ast.Return(value=expr)]
    module = ast.fix_missing_locations(ast.Module(body=[fdef], type_ignores=[]))
    namespace = {**_GLOBALS}
    exec(compile(module, f"<tensorized {vjp.__qualname__}>", "exec"), namespace)  # noqa: S102
    fn = namespace[vjp.__name__]
    fn.__defaults__, fn.__kwdefaults__ = vjp.__defaults__, vjp.__kwdefaults__
    return fn


@functools.cache
def tensorized_helper(fn: FunctionType) -> Callable[..., Any]:
    """A helper of ``rules/support.py`` with its whole body dispatched on tensors (the
    helpers it calls in turn are dispatched when called)."""
    fdef = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    assert isinstance(fdef, ast.FunctionDef) and not fdef.decorator_list
    module = ast.fix_missing_locations(
        ast.Module(body=[_Dispatched().visit(fdef)], type_ignores=[]))
    namespace = {**fn.__globals__, **_HOOKS}
    exec(compile(module, f"<tensorized {fn.__qualname__}>", "exec"), namespace)  # noqa: S102
    tensorized_fn = namespace[fn.__name__]
    namespace[fn.__name__] = fn  # a recursive call goes through ``_call`` again
    tensorized_fn.__defaults__, tensorized_fn.__kwdefaults__ = fn.__defaults__, fn.__kwdefaults__
    return tensorized_fn


def _is_helper(fn: Any) -> bool:
    """A Python function of ``rules/support.py`` (public or not), which rules may call."""
    return (isinstance(fn, FunctionType) and fn.__module__ == support.__name__
            and fn.__closure__ is None)


class _Dispatched(ast.NodeTransformer):
    """``f(a)`` -> ``__sg_call__(f, a)``, ``x.m(a)`` -> ``__sg_method__(x, "m", a)``,
    ``x.attr`` -> ``__sg_attr__(x, "attr")``; NumPy's and math's own names are kept."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        func = node.func
        args = [self.visit(a) for a in node.args]
        keywords = [self.visit(k) for k in node.keywords]
        if isinstance(func, ast.Attribute) and not _in_module(func):
            return ast.Call(func=ast.Name(id="__sg_method__", ctx=ast.Load()),
                            args=[self.visit(func.value), ast.Constant(func.attr), *args],
                            keywords=keywords)
        return ast.Call(func=ast.Name(id="__sg_call__", ctx=ast.Load()),
                        args=[self.visit(func), *args], keywords=keywords)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if _in_module(node) or not isinstance(node.ctx, ast.Load):
            return node
        return ast.Call(func=ast.Name(id="__sg_attr__", ctx=ast.Load()),
                        args=[node.value, ast.Constant(node.attr)], keywords=[])


def _in_module(node: ast.Attribute) -> bool:
    """``np.sum``, ``np.linalg.inv``, ``math.pi``: a name of a module, not of a value."""
    value = node.value
    while isinstance(value, ast.Attribute):
        value = value.value
    return isinstance(value, ast.Name) and value.id in _MODULES


def _holds_tensor(value: Any) -> bool:
    if isinstance(value, Tensor):
        return True
    return isinstance(value, (list, tuple)) and any(_holds_tensor(v) for v in value)


def _unwrapped(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value.data
    if isinstance(value, (list, tuple)):
        return type(value)(_unwrapped(v) for v in value)
    return value


def _call(fn: Callable, *args: Any, **kwargs: Any) -> Any:
    """A call in a tensorized VJP: recorded through ``fn``'s rule when it reads a tensor."""
    if not (_holds_tensor(args) or _holds_tensor(tuple(kwargs.values()))):
        return fn(*args, **kwargs)
    if fn in ARGUMENT_RETURNING and isinstance(args[0], Tensor):
        # ``unbroadcast(g, x)`` of shapes already alike is ``g`` itself: no node for it
        if fn(args[0].data, *_unwrapped(args[1:]), **_unwrapped(kwargs)) is args[0].data:
            return args[0]
    rule = lookup(fn)
    if rule is not None:
        if rule.sequence_output and _is_helper(fn):
            # a node's outputs are a flat list; a helper's sequence may nest (``unblock``)
            return tensorized_helper(fn)(*args, **kwargs)
        from .dispatch import call

        return call(fn, *args, **kwargs)
    if is_nondifferentiable(fn):
        return fn(*_unwrapped(args), **_unwrapped(kwargs))
    if _is_helper(fn):
        return tensorized_helper(fn)(*args, **kwargs)
    return fn(*args, **kwargs)  # a builtin (``len``, ``isinstance``...) or NumPy's dispatch


def _method(obj: Any, name: str, *args: Any, **kwargs: Any) -> Any:
    if not isinstance(obj, Tensor):
        return getattr(obj, name)(*args, **kwargs)
    if name == "astype" and obj.data.dtype == np.dtype(args[0]):
        return obj  # a cast to the dtype it has: nothing to record
    if name in METHODS:
        primitive, varargs = METHODS[name]
        if varargs and len(args) > 1:
            args = (args,)
        return _call(primitive, obj, *args, **kwargs)
    if name in NONDIFF_METHODS:
        return getattr(obj.data, name)(*_unwrapped(args), **_unwrapped(kwargs))
    return getattr(obj, name)(*args, **kwargs)


def _attribute(obj: Any, name: str) -> Any:
    if not isinstance(obj, Tensor):
        return getattr(obj, name)
    if name in ATTRIBUTES:
        return _call(ATTRIBUTES[name], obj)
    return getattr(obj.data, name)  # shape, size, ndim, dtype: an array's own answers


_HOOKS: dict[str, Any] = {
    "__sg_call__": _call, "__sg_method__": _method, "__sg_attr__": _attribute,
}
_GLOBALS: dict[str, Any] = {
    **{n: getattr(support, n) for n in dir(support) if not n.startswith("_")},
    "np": np, "math": math, "__builtins__": builtins, **_HOOKS,
}
