"""From a NumPy call on tensors to a recorded node whose backward is the rule table's VJPs.

``call(np.tanh, t)`` runs ``np.tanh`` on ``t.data`` and, when ``t`` requires grad and grad
mode is on, records one node (``TanhBackward0``) whose backward calls
``lookup(np.tanh).vjps["x"]``. Tensor methods, operators, ``sg.*`` functions and NumPy's
``__array_ufunc__``/``__array_function__`` protocols all come through here, so no
derivative is ever written in the runtime. A call with a floating result, an input that
requires grad and no rule is refused (``NoDerivativeError``), never treated as constant.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import NoDerivativeError
from ..rules.registry import Rule, is_nondifferentiable, lookup
from . import graph
from .grad_mode import is_grad_enabled
from .tensor import Tensor

_FLOAT64 = np.dtype(np.float64)


def unwrap(value: Any) -> Any:
    """The array inside a tensor; tuples and lists (indices) unwrapped element by element."""
    if isinstance(value, Tensor):
        return value.data
    if isinstance(value, (tuple, list)) and any(isinstance(v, Tensor) for v in value):
        return type(value)(unwrap(v) for v in value)
    return value


def call(fn: Callable, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` on the arrays inside tensors, recorded through ``fn``'s rule."""
    return call_named(None, fn, args, kwargs)


def call_named(name: str | None, fn: Callable, args: tuple, kwargs: dict) -> Any:
    """``call`` with the node named ``name`` instead of the rule's ``torch_name``."""
    inputs: list[tuple[Where, Tensor]] = []
    arrays = [_unwrap_noting(i, a, inputs) for i, a in enumerate(args)]
    kw_arrays = {k: _unwrap_noting(k, v, inputs) for k, v in kwargs.items()} if kwargs else {}
    result = fn(*arrays, **kw_arrays)
    several = isinstance(result, (list, tuple))
    ans: Any = ([_pytorch_float(np.asarray(r), arrays, kw_arrays) for r in result] if several
                else _pytorch_float(np.asarray(result), arrays, kw_arrays))
    if not (is_grad_enabled() and _any_requires_grad(inputs)):
        return [Tensor(a) for a in ans] if several else Tensor(ans)
    rule = lookup(fn)
    if rule is None:
        if not several and ans.dtype.kind not in "fc":
            return Tensor(ans)
        raise NoDerivativeError(_missing_rule_message(fn))
    _check_arguments(rule, fn, arrays, kw_arrays)
    vjps = [_vjp_for(rule, fn, _argument(where)) if tensor.requires_grad else None
            for where, tensor in inputs]
    backward = _rule_backward(vjps, [where for where, _ in inputs], ans, arrays, kw_arrays,
                              several)
    node_name = name or _node_name(rule, arrays, kw_arrays)
    outputs = graph.record(node_name, [t for _, t in inputs], ans, backward)
    return list(outputs) if isinstance(result, list) else outputs


# Where a tensor sits in a call: a position, a keyword, or (either, index) for an element of
# a sequence argument such as ``np.concatenate``'s ``arrays``.
Where = Any


def _any_requires_grad(inputs: list[tuple[Where, Tensor]]) -> bool:
    for _, tensor in inputs:
        if tensor.grad_fn is not None or tensor._requires_grad:
            return True
    return False


def _argument(where: Where) -> int | str:
    return where[0] if isinstance(where, tuple) else where


def _rule_backward(vjps: list, wheres: list[Where], ans: Any, arrays: list, kw_arrays: dict,
                   several: bool) -> Callable[[tuple], tuple]:
    """The node's backward: each input's cotangent from its parameter's VJP, called once
    per parameter (a sequence parameter's cotangent is a sequence, one item per tensor)."""

    def backward(grads: tuple) -> tuple:
        g = ([np.zeros_like(a) if gi is None else gi for gi, a in zip(grads, ans, strict=True)]
             if several else grads[0])
        per_argument: dict = {}
        cotangents = []
        for vjp, where in zip(vjps, wheres, strict=True):
            if vjp is None:
                cotangents.append(None)
                continue
            argument = _argument(where)
            if argument not in per_argument:
                # The rule's own signature binds the arguments and fills in the defaults.
                per_argument[argument] = vjp(g, ans, *arrays, **kw_arrays)
            cotangent = per_argument[argument]
            cotangents.append(cotangent[where[1]] if isinstance(where, tuple) else cotangent)
        return tuple(cotangents)

    return backward


def _unwrap_noting(where: int | str, value: Any, inputs: list) -> Any:
    """``unwrap(value)``, noting each tensor argument (a node input) in ``inputs``."""
    if isinstance(value, Tensor):
        inputs.append((where, value))
        return value.data
    if isinstance(value, (tuple, list)):
        inputs.extend(((where, j), v) for j, v in enumerate(value) if isinstance(v, Tensor))
        return unwrap(value)
    return value


def call_untracked(fn: Callable, *args: Any, **kwargs: Any) -> Any:
    """``fn`` on the arrays inside tensors, results wrapped as tensors without history
    (comparisons, ``argmax``, shape queries...)."""
    result = fn(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
    return wrap_untracked(result)


def wrap_untracked(result: Any) -> Any:
    if isinstance(result, (np.ndarray, np.generic)):
        return Tensor(np.asarray(result))
    if isinstance(result, tuple):
        return type(result)(wrap_untracked(r) for r in result)
    return result


def _tracked(args: tuple, kwargs: dict) -> bool:
    """Whether a tensor argument requires grad."""
    return any(isinstance(v, Tensor) and v.requires_grad for v in (*args, *kwargs.values()))


def _check_arguments(rule: Rule, fn: Callable, arrays: list, kw_arrays: dict) -> None:
    """Refuse, at the call rather than at backward, arguments the rule cannot take."""
    if len(arrays) > len(rule.params):
        raise TypeError(f"{_name(fn)}: too many positional arguments for its derivative rule")
    for key in kw_arrays:
        if key not in rule.params:
            raise TypeError(f"{_name(fn)}(..., {key}=...) is not supported on tensors that "
                            "require grad")


def _vjp_for(rule: Rule, fn: Callable, position: int | str) -> Callable | None:
    """The VJP of a tracked argument, or None when by nature it has no gradient (an index);
    an argument that should have one but lacks a VJP is an error."""
    param = rule.params[position] if isinstance(position, int) else position
    if param in rule.vjps:
        return rule.vjps[param]
    if param in rule.nondiff:
        return None
    raise NoDerivativeError(f"the derivative rule of {_name(fn)} has no VJP for its "
                            f"parameter {param!r}")


def _node_name(rule: Rule, arrays: list, kw_arrays: dict) -> str:
    """PyTorch's name: reductions over a ``dim`` are ``...Backward1``."""
    stem = rule.torch_name or rule.name.capitalize()
    if "keepdims" in rule.params and "axis" in rule.params:
        position = rule.params.index("axis")
        axis = arrays[position] if position < len(arrays) else kw_arrays.get("axis")
        if axis is not None:
            return f"{stem}Backward1"
    return f"{stem}Backward0"


def _pytorch_float(ans: np.ndarray, arrays: list, kw_arrays: dict) -> np.ndarray:
    """PyTorch's default dtype: a float64 result that no float64 array asked for (integer
    tensors divided, Python floats mixed with integers) is float32."""
    if ans.dtype != _FLOAT64:
        return ans
    for a in (*arrays, *kw_arrays.values()):
        if getattr(a, "dtype", None) == _FLOAT64:
            return ans
    return ans.astype(np.float32)


def _missing_rule_message(fn: Callable) -> str:
    name = _name(fn)
    return (f"{name} has no derivative rule, so it cannot be applied to a tensor that "
            f"requires grad. Register one with @sg.defvjp({name}), or apply it under "
            "sg.no_grad() / to t.detach() if no gradient should flow through it.")


def _name(fn: Callable) -> str:
    module = getattr(fn, "__module__", None) or "numpy"
    short = "np" if module.startswith("numpy") or isinstance(fn, np.ufunc) else module
    return f"{short}.{getattr(fn, '__name__', repr(fn))}"


# ------------------------------------------------------------ NumPy's dispatch protocols


def array_ufunc(ufunc: np.ufunc, method: str, inputs: tuple, kwargs: dict) -> Any:
    """``np.exp(t)``, ``np.add(t, 1)``...: tracked through the ufunc's rule."""
    if method != "__call__" or "out" in kwargs:
        if _tracked(inputs, kwargs) and is_grad_enabled():
            raise NotImplementedError(f"{ufunc.__name__}.{method} (or out=) on tensors that "
                                      "require grad is not supported")
        return call_untracked(getattr(ufunc, method), *inputs, **kwargs)
    if ufunc.nout != 1:
        return call_untracked(ufunc, *inputs, **kwargs)
    return call(ufunc, *inputs, **kwargs)


def array_function(func: Callable, args: tuple, kwargs: dict) -> Any:
    """``np.sum(t)``, ``np.reshape(t, ...)``...: tracked through the function's rule;
    functions without a rule run untracked unless a float result would lose a gradient."""
    if lookup(func) is not None:
        return call(func, *args, **kwargs)
    if is_grad_enabled() and not is_nondifferentiable(func) and _nested_tracked(args, kwargs):
        result = func(*_deep_unwrap(args), **_deep_unwrap(kwargs))
        if np.asarray(result).dtype.kind in "fc":
            raise NoDerivativeError(_missing_rule_message(func))
        return wrap_untracked(result)
    return wrap_untracked(func(*_deep_unwrap(args), **_deep_unwrap(kwargs)))


def _nested_tracked(*values: Any) -> bool:
    for value in values:
        if isinstance(value, Tensor) and value.requires_grad:
            return True
        if isinstance(value, (list, tuple)) and _nested_tracked(*value):
            return True
        if isinstance(value, dict) and _nested_tracked(*value.values()):
            return True
    return False


def _deep_unwrap(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value.data
    if isinstance(value, (list, tuple)):
        return type(value)(_deep_unwrap(v) for v in value)
    if isinstance(value, dict):
        return {k: _deep_unwrap(v) for k, v in value.items()}
    return value
