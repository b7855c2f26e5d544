"""From a NumPy call on tensors to a recorded node whose backward is the rule table's VJPs.

``call(np.tanh, t)`` runs ``np.tanh`` on ``t.data`` and, when ``t`` requires grad and grad
mode is on, records one node (``TanhBackward0``) whose backward calls
``lookup(np.tanh).vjps["x"]``. Tensor methods, operators, ``sg.*`` functions and NumPy's
``__array_ufunc__``/``__array_function__`` protocols all come through here, so no
derivative is ever written in the runtime. A call with a floating result, an input that
requires grad and no rule is refused (``NoDerivativeError``), never treated as constant.

What a call needs from the rule (the VJP of each tensor input, the node class, the checks
of its arguments) depends only on the primitive and on which arguments are tensors that
require grad: it is worked out once per such pattern (a ``Plan``) and kept. Tensor methods
and operators call through an ``Op`` (``Op.unary``, ``Op.binary``, ``Op.positional``),
which finds its plan with one lookup and skips ``call``'s generic unwrapping; every other
call goes through ``call_named``. Both record with ``graph.record_saved``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import NoDerivativeError
from ..rules.methods import VIEW_PRIMITIVES
from ..rules.registry import Rule, is_nondifferentiable, lookup, on_change
from ..rules.support import along_axis_index
from . import graph, views
from .grad_mode import THREADS_WITHOUT_GRAD as _OFF
from .grad_mode import _state as _THREAD
from .grad_mode import is_grad_enabled
from .reads import value_reads
from .tensor import Tensor
from .tensorized import tensorized

_FLOAT64 = np.dtype(np.float64)
_COMPLEX128 = np.dtype(np.complex128)
# Ops ask whether grad mode is off as ``_OFF[0] and not _THREAD.enabled``: ``is_grad_enabled()``
# written out (see grad_mode's docstring: the thread is asked only if some thread has it off).


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


def call_named(name: str | None, fn: Callable, args: tuple, kwargs: dict, *,
               views_by_caller: bool = False) -> Any:
    """``call`` with the node named ``name`` instead of the rule's ``torch_name``. Results
    sharing memory with an argument are made views or copies (``_as_views``), unless the
    caller makes them views itself (``views_by_caller``: ``Tensor.split``)."""
    inputs: list[tuple[Where, Tensor]] = []
    arrays = [_unwrap_noting(i, a, inputs) for i, a in enumerate(args)]
    kw_arrays = {k: _unwrap_noting(k, v, inputs) for k, v in kwargs.items()} if kwargs else {}
    result = fn(*arrays, **kw_arrays)
    several = isinstance(result, (list, tuple))
    ans: Any = ([_pytorch_float(np.asarray(r), arrays, kw_arrays) for r in result] if several
                else _pytorch_float(np.asarray(result), arrays, kw_arrays))
    recording = is_grad_enabled() and _any_requires_grad(inputs)
    if not recording:
        outputs: Any = [Tensor(a) for a in ans] if several else Tensor(ans)
    else:
        rule = lookup(fn)
        if rule is None:
            return _without_rule(fn, ans, several)
        pattern = tuple((where, requires(tensor)) for where, tensor in inputs)
        key = (rule, fn, name, several, len(arrays), tuple(kw_arrays), pattern)
        plan = _PLANS.get(key)
        if plan is None:
            plan = _PLANS[key] = _make_plan(rule, fn, name, pattern, len(arrays), kw_arrays,
                                            several)
        if plan.live:
            outputs = _record(plan, [t for _, t in inputs], ans, arrays, kw_arrays)
        else:  # only arguments without a derivative (a shape, an index) require grad
            outputs = [Tensor(a) for a in ans] if several else Tensor(ans)
    if not views_by_caller:
        outputs = _as_views(fn, args, kwargs, inputs, outputs, recording)
    return list(outputs) if isinstance(result, list) else outputs


def _as_views(fn: Callable, args: tuple, kwargs: dict, inputs: list, outputs: Any,
              recording: bool) -> Any:
    """A result sharing memory with a tensor argument: a view of it when the primitive
    makes views of its first argument (``np.reshape(t, ...)``), otherwise a copy (a tensor
    and its version counter must not alias another's memory unnoticed)."""
    if not inputs:
        return outputs
    if isinstance(outputs, Tensor):
        source = args[0] if args else None
        if isinstance(source, Tensor) and (fn in VIEW_PRIMITIVES or fn is operator.getitem):
            step = (fn, fn, tuple(unwrap(a) for a in args[1:]),
                    {k: unwrap(v) for k, v in kwargs.items()})
            views.make_view(outputs, source, step, recording)
            if outputs._view is not None:
                return outputs
        return _unaliased(outputs, inputs)
    return type(outputs)(_unaliased(out, inputs) for out in outputs)


def _unaliased(out: Tensor, inputs: list) -> Tensor:
    if out.data.base is not None and any(np.may_share_memory(out.data, t.data)
                                         for _, t in inputs):
        out.data = np.array(out.data, copy=True)
    return out


class Op:
    """A primitive as a tensor method or operator calls it: positional arguments, the
    tensors among them not nested in sequences, a single array result (``x * 2.0``,
    ``x.tanh()``, ``x.sum()``); ``fn`` is the primitive the rule table knows. Its ``Plan``
    for each pattern of arguments is made once and kept until the rule table changes (when
    ``_forget_plans`` drops them all), so a call does NumPy's work, one dictionary lookup
    and the recording; anything else (keywords, tensors inside lists) goes through
    ``call_named``, with the same result.

    ``unary(x)``, ``binary(a, b)`` and ``reflected(b, a)`` (``binary(a, b)``) are the most
    frequent calls of the runtime by far. They are plain functions made for each Op
    (``_unary_call``, ``_binary_calls``), so that a tensor method or operator can be one of
    them itself (``Tensor.tanh = TANH.unary``): no method in between to call."""

    __slots__ = ("fn", "name", "runs", "view", "as_result", "_plans", "unary", "binary",
                 "reflected")

    def __init__(self, fn: Callable, name: str | None = None, runs: Callable | None = None,
                 view: bool = False, exact_dtype: bool = False) -> None:
        self.fn = fn
        self.name = name
        # What computes the result, when something cheaper than ``fn`` computes the same.
        self.runs = runs or fn
        # Whether the result may be a view of the first argument (``views.py``).
        self.view = view
        # The result as an array in PyTorch's dtype; ``exact_dtype``: in the one it has (a
        # cast's).
        self.as_result = _as_array if exact_dtype else _as_result
        # Plans by the kinds of the arguments, keyed ``_UNARY``, ``4 * kind_a + kind_b`` or a
        # tuple of kinds (keys that never equal one another). Cleared, never replaced: the
        # calls below hold it.
        self._plans: dict[Any, Plan] = {}
        self.unary = _unary_call(self)
        self.binary, self.reflected = _binary_calls(self)
        if view:
            self.unary, self.binary = _view_calls(self, self.unary, self.binary)
        _OPS.append(self)

    def positional(self, *args: Any) -> Any:
        """``fn(*args)``: any number of arguments, tensors among them (see ``_positional``);
        a view of the first for a view-making Op."""
        out = self._positional(*args)
        if self.view and isinstance(args[0], Tensor) and isinstance(out, Tensor):
            views.make_view(out, args[0], (self.fn, self.runs, args[1:], views.NO_KEYWORDS),
                            is_grad_enabled())
        return out

    def plan_for(self, kinds: tuple) -> Plan | None:
        """The plan for arguments of ``kinds`` (one per argument; see ``_kind``)."""
        return self._plans.get(kinds) or self._new_plan(kinds, kinds)

    def _positional(self, *args: Any) -> Any:
        """``fn(*args)``: any number of arguments, tensors among them. A primitive with
        several results (none of the tensor methods' Ops) is handed to ``call_named``."""
        kinds, arrays, inputs = [], [], []
        for a in args:
            kind = _kind(a)
            if kind == _SEQUENCE:
                return call_named(self.name, self.fn, args, {})
            kinds.append(kind)
            if kind:
                inputs.append(a)
            arrays.append(a.data if kind else a)
        arrays = tuple(arrays)
        result = self.runs(*arrays)
        if isinstance(result, (list, tuple)):
            return call_named(self.name, self.fn, args, {})
        ans = self.as_result(result, arrays)
        if _REQUIRES_GRAD not in kinds or _OFF[0] and not _THREAD.enabled:
            return Tensor(ans)
        key = tuple(kinds)
        plan = self._plans.get(key) or self._new_plan(key, key)
        if plan is None:
            return _without_rule(self.fn, ans, several=False)
        cls = plan.node_class or plan.class_for(arrays, _NO_KEYWORDS)
        return graph.record_saved(cls, plan, inputs, ans, (ans, arrays, _NO_KEYWORDS))

    def _new_plan(self, key: Any, kinds: tuple) -> Plan | None:
        """The plan for arguments of ``kinds`` (one per argument) not met since the rule
        table last changed, kept under ``key`` (or ``None``: ``fn`` has no rule), made from
        the rule as it is now."""
        rule = lookup(self.fn)
        if rule is None:
            return None
        pattern = tuple((i, k == _REQUIRES_GRAD) for i, k in enumerate(kinds) if k)
        plan = self._plans[key] = _make_plan(rule, self.fn, self.name, pattern, len(kinds), {},
                                             several=False)
        return plan


def _unary_call(op: Op) -> Callable[[Any], Tensor]:
    """``op.unary``: ``fn(x)``, for ``x.tanh()`` and ``sg.tanh(x)`` alike (``x`` need not be
    a tensor). Each check is written for the common case (a float64 array) first."""
    fn, runs, plans, new_plan, as_result = op.fn, op.runs, op._plans, op._new_plan, op.as_result
    record_saved, ndarray = graph.record_saved, np.ndarray

    def unary(x: Any) -> Tensor:
        if type(x) is not Tensor and not isinstance(x, Tensor):
            x = Tensor(x)
        data = x.data
        ans = runs(data)
        # (PyTorch's dtype differs from NumPy's for a float64 result of other arrays only.)
        if type(ans) is not ndarray or data.dtype is not _FLOAT64 and ans.dtype is _FLOAT64:
            ans = as_result(ans, (data,))
        if (x._grad_fn is None and not x._requires_grad and (
                x._view is None or not x.requires_grad)) or _OFF[0] and not _THREAD.enabled:
            return Tensor(ans)
        plan = plans.get(_UNARY) or new_plan(_UNARY, (_REQUIRES_GRAD,))
        if plan is None:
            return _without_rule(fn, ans, several=False)
        arrays = (data,)
        cls = plan.node_class or plan.class_for(arrays, _NO_KEYWORDS)
        return record_saved(cls, plan, (x,), ans, (ans, arrays, _NO_KEYWORDS))

    unary.__name__ = unary.__qualname__ = getattr(fn, "__name__", "unary")
    return unary


def _binary_calls(op: Op) -> tuple[Callable[[Any, Any], Tensor], Callable[[Any, Any], Tensor]]:
    """``op.binary``: ``fn(a, b)``, at least one of them a tensor, and ``op.reflected``:
    the same with its arguments the other way round (``Tensor.__rsub__``). Each check is
    written for the common case (a tensor and a Python float) first."""
    fn, name, runs, plans, new_plan = op.fn, op.name, op.runs, op._plans, op._new_plan
    record_saved, ndarray, as_result = graph.record_saved, np.ndarray, op.as_result

    def binary(a: Any, b: Any) -> Tensor:
        kind_a = _kind(a) if type(a) is not Tensor or a._view is not None else (
            _REQUIRES_GRAD if a._grad_fn is not None or a._requires_grad else _CONSTANT)
        kind_b = _OTHER if type(b) is float or b is None else _kind(b)
        if kind_a == _SEQUENCE or kind_b == _SEQUENCE:
            return call_named(name, fn, (a, b), {})
        x1 = a.data if kind_a else a
        x2 = b.data if kind_b else b
        ans = runs(x1, x2)
        # A result of the dtype of a tensor's array is what PyTorch gives, too (unless the
        # array is 0-d, and the other not: PyTorch does not let it widen the other's dtype).
        first = x1 if kind_a else x2
        if type(ans) is not ndarray or ans.dtype is not first.dtype or (
                not first.ndim and ans.ndim):
            ans = as_result(ans, (x1, x2))
        if kind_a != _REQUIRES_GRAD and kind_b != _REQUIRES_GRAD or (
                _OFF[0] and not _THREAD.enabled):
            return Tensor(ans)
        key = 4 * kind_a + kind_b  # (an int hashes faster than the pair of kinds)
        plan = plans.get(key) or new_plan(key, (kind_a, kind_b))
        if plan is None:
            return _without_rule(fn, ans, several=False)
        inputs = (a, b) if kind_a and kind_b else (a,) if kind_a else (b,)
        arrays = (x1, x2)
        cls = plan.node_class or plan.class_for(arrays, _NO_KEYWORDS)
        return record_saved(cls, plan, inputs, ans, (ans, arrays, _NO_KEYWORDS))

    def reflected(b: Any, a: Any) -> Tensor:
        return binary(a, b)

    binary.__name__ = binary.__qualname__ = getattr(fn, "__name__", "binary")
    reflected.__name__ = reflected.__qualname__ = f"reflected_{binary.__name__}"
    return binary, reflected


def _view_calls(op: Op, unary: Callable, binary: Callable) -> tuple[Callable, Callable]:
    """``unary`` and ``binary`` of a view-making Op: their result made a view of the first
    argument when NumPy made it one (``views.make_view``)."""
    fn, runs, make_view, none = op.fn, op.runs, views.make_view, views.NO_KEYWORDS

    def unary_view(x: Any) -> Tensor:
        out = unary(x)
        if isinstance(x, Tensor):
            make_view(out, x, (fn, runs, (), none), not _OFF[0] or _THREAD.enabled)
        return out

    def binary_view(a: Any, b: Any) -> Tensor:
        out = binary(a, b)
        if isinstance(a, Tensor) and isinstance(out, Tensor):
            make_view(out, a, (fn, runs, (b,), none), not _OFF[0] or _THREAD.enabled)
        return out

    unary_view.__name__ = unary_view.__qualname__ = unary.__name__
    binary_view.__name__ = binary_view.__qualname__ = binary.__name__
    return unary_view, binary_view


# What an argument of an ``Op`` is: not a tensor (falsy), a tensor that does not require
# grad, one that does, or a sequence (perhaps holding tensors: the general path).
_OTHER, _CONSTANT, _REQUIRES_GRAD, _SEQUENCE = 0, 1, 2, 3
_UNARY = "unary"  # the key of an Op's plan for one argument
_OPS: list[Op] = []


def _forget_plans() -> None:
    """The rule table changed: plans made from the rules before are stale."""
    for op in _OPS:
        op._plans.clear()
    _PLANS.clear()


on_change(_forget_plans)
_NO_KEYWORDS: dict = {}


def requires(t: Tensor) -> bool:
    """``t.requires_grad``, answered without a property call for a tensor that is no view."""
    return t._grad_fn is not None or t._requires_grad or (
        t._view is not None and t.requires_grad)


def kind(value: Any) -> int:
    """What ``value`` is as an argument of an ``Op`` (``_OTHER``...)."""
    return _kind(value)


def refuse_without_rule(fn: Callable) -> None:
    raise NoDerivativeError(_missing_rule_message(fn))


def _kind(value: Any) -> int:
    cls = type(value)
    if cls is Tensor:
        return _REQUIRES_GRAD if requires(value) else _CONSTANT
    if cls is float or cls is int or value is None:  # the usual constants, answered first
        return _OTHER
    if isinstance(value, (list, tuple)):  # shapes, axes and indices are constants too
        return _OTHER if _PLAIN_TYPES.issuperset(map(type, value)) else _SEQUENCE
    if isinstance(value, Tensor):
        return _SEQUENCE
    return _OTHER


# What a list or tuple of constants holds (no tensor, no sequence that might hold one).
_PLAIN_TYPES = frozenset({int, float, bool, slice, type(None), type(Ellipsis), np.ndarray})


def as_result(result: Any, arrays: tuple) -> np.ndarray:
    """A primitive's single result as an array, in PyTorch's default dtype."""
    return _as_result(result, arrays)


def _as_array(result: Any, arrays: tuple) -> np.ndarray:
    return result if type(result) is np.ndarray else np.asarray(result)


def _as_result(result: Any, arrays: tuple) -> np.ndarray:
    """A primitive's single result as an array, in PyTorch's default dtype."""
    ans = result if type(result) is np.ndarray else np.asarray(result)
    first = arrays[0]
    if ans.dtype == _FLOAT64 and (type(first) is not np.ndarray or first.dtype is not _FLOAT64
                                  or not first.ndim):
        return _pytorch_float(ans, arrays, _NO_KEYWORDS)
    return ans


def _without_rule(fn: Callable, ans: Any, several: bool) -> Any:
    """A call on tensors that require grad whose primitive has no rule: a result without a
    gradient (integer, boolean) is fine, a floating one is refused."""
    if not several and ans.dtype.kind not in "fc":
        return Tensor(ans)
    raise NoDerivativeError(_missing_rule_message(fn))


def _record(plan: Plan, inputs: Sequence[Tensor], ans: Any, arrays: Sequence,
            kw_arrays: dict) -> Any:
    """One node whose backward is ``plan``, saving what the rule's VJPs read."""
    saved = (ans, arrays, kw_arrays)
    cls = plan.node_class or plan.class_for(arrays, kw_arrays)
    if plan.several:
        node = graph.saved_node(cls, plan, inputs, saved, len(ans))
        outputs = [graph.output_of(node, nr, a) for nr, a in enumerate(ans)]
        if plan.saves_ans:
            node._versions += tuple((out._vbox, 0, out.data, -1 - nr)
                                    for nr, out in enumerate(outputs))
        return tuple(outputs)
    return graph.record_saved(cls, plan, inputs, ans, saved)


# Where a tensor sits in a call: a position, a keyword, or (either, index, ...) for an item
# of a sequence argument such as ``np.concatenate``'s ``arrays`` (a path into nested lists:
# ``np.block``).
Where = Any


class Plan:
    """How the calls of one primitive with one pattern of arguments are differentiated,
    worked out once: which rule VJP gives each tensor input's cotangent (``None`` for an
    input that does not require grad) and the node class. It is the shared backward of the
    ``graph.SavedValuesNode`` of every such call, which saves ``(ans, arrays, kw_arrays)``.
    """

    __slots__ = ("vjps", "wheres", "several", "node_class", "_named_by_axis", "saved_inputs",
                 "saves_ans", "keeps_values", "_nondiff_reads", "live", "_varargs_start")

    def __init__(self, rule: Rule, fn: Callable, name: str | None, pattern: tuple,
                 several: bool, n_arrays: int, keywords: tuple) -> None:
        self.vjps = tuple(_vjp_for(rule, fn, _argument(where)) if requires_grad else None
                          for where, requires_grad in pattern)
        self.wheres = tuple(where for where, _ in pattern)
        self._varargs_start = None if rule.varargs is None else rule.params.index(rule.varargs)
        self.several = several
        self.live = any(vjp is not None for vjp in self.vjps)
        # What the active VJPs read the values of (``reads.py``): the saved tensors.
        read = frozenset().union(*(value_reads(v) for v in self.vjps if v is not None))
        self.saves_ans = "ans" in read
        self.saved_inputs = tuple(k for k, where in enumerate(self.wheres)
                                  if _param_name(rule, _argument(where)) in read)
        self.keeps_values = self.saves_ans or any(
            p in read and p not in rule.nondiff for p in rule.params)
        arguments = (*range(n_arrays), *keywords)
        self._nondiff_reads = tuple(a for a in arguments
                                    if _param_name(rule, a) in read & rule.nondiff)
        stem = rule.torch_name or rule.name.capitalize()
        # The class of the nodes, or None when it depends on the call (``class_for``).
        self.node_class: type[graph.SavedValuesNode] | None = graph.node_class(
            name or f"{stem}Backward0", graph.SavedValuesNode)
        self._named_by_axis = None
        if name is None and "keepdims" in rule.params and "axis" in rule.params:
            # PyTorch's name: reductions over a ``dim`` are ``...Backward1``.
            self._named_by_axis = (rule.params.index("axis"), self.node_class,
                                   graph.node_class(f"{stem}Backward1", graph.SavedValuesNode))
            self.node_class = None

    def frees(self, saved: tuple) -> bool:
        """Whether a node with this plan drops ``saved`` after a backward pass: when its
        backward reads a value PyTorch would save as a tensor (not an int index, an axis)."""
        if self.keeps_values:
            return True
        if not self._nondiff_reads:
            return False
        _, arrays, kw_arrays = saved
        return any(_holds_array(arrays[a] if isinstance(a, int) else kw_arrays[a])
                   for a in self._nondiff_reads)

    def class_for(self, arrays: Sequence, kw_arrays: dict) -> type[graph.SavedValuesNode]:
        """The node class of a reduction: named by whether it reduces over an axis."""
        position, over_all, over_axis = self._named_by_axis
        axis = arrays[position] if position < len(arrays) else kw_arrays.get("axis")
        return over_all if axis is None else over_axis

    def cotangents(self, grads: tuple, saved: tuple) -> tuple:
        """Each input's cotangent from its parameter's VJP, called once per parameter (a
        sequence parameter's cotangent is a sequence, one item per tensor)."""
        return self._cotangents(grads, *saved, lambda vjp: vjp)

    def recorded_cotangents(self, node: graph.SavedValuesNode, grads: tuple) -> tuple:
        """``cotangents`` under ``create_graph``: ``grads`` are tensors, and so are the saved
        values, unpacked with the history they had (the node's output is a tensor whose
        ``grad_fn`` is the node; an input, its edge's), so the VJPs, tensorized, record
        their own graph."""
        ans, arrays, kw_arrays = node._saved
        if self.several:
            ans = [graph.output_of(node, nr, a) for nr, a in enumerate(ans)]
        else:
            ans = graph.output_of(node, 0, ans)
        arrays, kw_arrays = list(arrays), dict(kw_arrays)
        for (child, nr), where in zip(node.next_functions, self.wheres, strict=True):
            if child is not None:
                where = self._in_call(where)
                _place(arrays, kw_arrays, where, graph.unpacked(child, nr, _at(
                    arrays, kw_arrays, where)))
        return self._cotangents(grads, ans, arrays, kw_arrays, tensorized)

    def _in_call(self, where: Where) -> Where:
        """Where an input sits among the call's arguments: an item of the variadic
        parameter (``(start, j, ...)``) is the positional argument ``start + j``."""
        if isinstance(where, tuple) and where[0] == self._varargs_start:
            start, j, *inside = where
            return (start + j, *inside) if inside else start + j
        return where

    def _cotangents(self, grads: tuple, ans: Any, arrays: Sequence, kw_arrays: dict,
                    prepared: Callable[[Callable], Callable]) -> tuple:
        g = ([np.zeros_like(a.data if isinstance(a, Tensor) else a) if gi is None else gi
              for gi, a in zip(grads, ans, strict=True)] if self.several else grads[0])
        per_argument: dict = {}
        cotangents = []
        for vjp, where in zip(self.vjps, self.wheres, strict=True):
            if vjp is None:
                cotangents.append(None)
                continue
            argument = _argument(where)
            if argument not in per_argument:
                # The rule's own signature binds the arguments and fills in the defaults.
                per_argument[argument] = prepared(vjp)(g, ans, *arrays, **kw_arrays)
            cotangent = per_argument[argument]
            if isinstance(where, tuple):  # an item of a sequence (a list of lists: np.block)
                for j in where[1:]:
                    cotangent = cotangent[j]
            cotangents.append(cotangent)
        return tuple(cotangents)


class DirectPlan(Plan):
    """A ``Plan`` where every tensor is an argument of its own and the result one array
    (the common case): each input's cotangent is its VJP's value."""

    __slots__ = ("_only",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._only = self.vjps[0] if len(self.vjps) == 1 else None

    def cotangents(self, grads: tuple, saved: tuple) -> tuple:
        ans, arrays, kw_arrays = saved
        if self._only is not None:
            if not kw_arrays:  # (an empty ``**`` still costs a dict)
                return (self._only(grads[0], ans, *arrays),)
            return (self._only(grads[0], ans, *arrays, **kw_arrays),)
        g = grads[0]
        cotangents = []
        for vjp in self.vjps:
            cotangents.append(None if vjp is None else vjp(g, ans, *arrays, **kw_arrays))
        return tuple(cotangents)


_PLANS: dict[tuple, Plan] = {}


def _make_plan(rule: Rule, fn: Callable, name: str | None, pattern: tuple, n_arrays: int,
               kw_arrays: dict, several: bool) -> Plan:
    """The plan of a call, once its arguments are checked against the rule."""
    _check_arguments(rule, fn, n_arrays, kw_arrays)
    if rule.varargs is not None:
        # the arguments a variadic parameter collects are the items of one sequence argument
        # (``np.einsum(s, a, b)``: ``a`` is item 0 of ``operands``, whose VJP returns a list)
        start = rule.params.index(rule.varargs)
        pattern = tuple((_as_vararg(where, start), requires_grad)
                        for where, requires_grad in pattern)
    direct = not several and not any(isinstance(where, tuple) for where, _ in pattern)
    return (DirectPlan if direct else Plan)(rule, fn, name, pattern, several, n_arrays,
                                            tuple(kw_arrays))


def _as_vararg(where: Where, start: int) -> Where:
    """``where`` (a position, perhaps with a path inside it) as an item of the variadic
    parameter at ``start``, if it is one."""
    position, inside = (where[0], where[1:]) if isinstance(where, tuple) else (where, ())
    if isinstance(position, int) and position >= start:
        return (start, position - start, *inside)
    return where


def _param_name(rule: Rule, argument: int | str) -> str:
    """The rule's parameter an argument (a position or a keyword) binds to."""
    if isinstance(argument, str):
        return argument
    if rule.varargs is not None and argument >= rule.params.index(rule.varargs):
        return rule.varargs
    return rule.params[argument] if argument < len(rule.params) else ""


def _holds_array(value: Any) -> bool:
    """Whether ``value`` (an index, say) holds an array or a list: a saved tensor."""
    if isinstance(value, (np.ndarray, list)):
        return True
    return isinstance(value, tuple) and any(_holds_array(v) for v in value)


def vjp_call(vjp: Callable, g: Any, ans: Any, *args: Any, **kwargs: Any) -> Any:
    """A rule's VJP on arrays (the usual backward), or on tensors (create_graph)."""
    if isinstance(g, Tensor):
        return tensorized(vjp)(g, ans, *args, **kwargs)
    return vjp(g, ans, *args, **kwargs)


def _at(arrays: list, kw_arrays: dict, where: Where) -> Any:
    """The argument at ``where`` (a position, a keyword, or an item of either, at any depth
    of nested sequences)."""
    if not isinstance(where, tuple):
        return arrays[where] if isinstance(where, int) else kw_arrays[where]
    value = _at(arrays, kw_arrays, where[0])
    for j in where[1:]:
        value = value[j]
    return value


def _place(arrays: list, kw_arrays: dict, where: Where, value: Any) -> None:
    """Put ``value`` at ``where`` (the sequences on the way are copied into lists first)."""
    if isinstance(where, tuple):
        argument, *path = where
        container = arrays if isinstance(argument, int) else kw_arrays
        container[argument] = _replaced(container[argument], path, value)
    elif isinstance(where, int):
        arrays[where] = value
    else:
        kw_arrays[where] = value


def _replaced(items: Sequence, path: list[int], value: Any) -> list:
    """A list copy of ``items`` with ``value`` at ``path`` inside it."""
    copied = list(items)
    j, *rest = path
    copied[j] = _replaced(copied[j], rest, value) if rest else value
    return copied


def primitive(fn: Callable, *args: Any, runs: Callable | None = None, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` on arrays (computed by ``runs`` when given), or recorded
    through ``fn``'s rule when an argument is a tensor."""
    if any(isinstance(a, Tensor) for a in args):
        return call(fn, *args, **kwargs)
    return (runs or fn)(*args, **kwargs)


def _any_requires_grad(inputs: list[tuple[Where, Tensor]]) -> bool:
    for _, tensor in inputs:
        if requires(tensor):
            return True
    return False


def _argument(where: Where) -> int | str:
    return where[0] if isinstance(where, tuple) else where


def _unwrap_noting(where: Where, value: Any, inputs: list) -> Any:
    """``value`` with the tensors in it (nested in sequences too: ``np.block``) replaced by
    their arrays, noting each (a node input) in ``inputs`` with where it was."""
    if isinstance(value, Tensor):
        inputs.append((where, value))
        return value.data
    if isinstance(value, (tuple, list)) and _nests_tensor(value):
        path = where if isinstance(where, tuple) else (where,)
        return type(value)([_unwrap_noting((*path, j), v, inputs) for j, v in enumerate(value)])
    return value


def _nests_tensor(values: Sequence) -> bool:
    for v in values:
        if isinstance(v, Tensor) or isinstance(v, (tuple, list)) and _nests_tensor(v):
            return True
    return False


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


def _check_arguments(rule: Rule, fn: Callable, n_arrays: int, kw_arrays: dict) -> None:
    """Refuse, at the call rather than at backward, arguments the rule cannot take."""
    if n_arrays > len(rule.params) and rule.varargs is None:
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


def _pytorch_float(ans: np.ndarray, arrays: Sequence, kw_arrays: dict) -> np.ndarray:
    """PyTorch's default dtype: a float64 result that no float64 (or complex128) array asked
    for (integer tensors divided, Python floats mixed with integers) is float32. A NumPy
    scalar (``np.float64(0.5)``, ``np.sqrt(2.0)``) counts as a Python number, as in PyTorch:
    it does not make a float32 tensor's result float64. A dtype argument asking for float64
    is heeded."""
    if ans.dtype != _FLOAT64 or _holds_float64((*arrays, *kw_arrays.values())):
        return ans
    return ans.astype(np.float32)


def _holds_float64(values: Sequence) -> bool:
    """Whether PyTorch's result would be float64: a float64 (or complex128) array is among
    ``values`` (or in a list among them), of one dimension or more, or of none where no
    floating array of one dimension or more is (a 0-d tensor, like a number, does not
    widen a dimensioned float32 one in PyTorch: ``x * sg.tensor(0.5, dtype=sg.float64)``
    is float32)."""
    scalar_float64 = dimensioned_float = False
    pending = list(values)
    while pending:
        a = pending.pop()
        if isinstance(a, (list, tuple)):
            pending.extend(a)
            continue
        if isinstance(a, np.generic):
            continue
        if isinstance(a, np.dtype) or isinstance(a, type) and issubclass(a, np.generic):
            if np.dtype(a) in (_FLOAT64, _COMPLEX128):  # asked for: ``x.sum(dtype=sg.float64)``
                return True
            continue
        dtype = getattr(a, "dtype", None)
        if not isinstance(dtype, np.dtype):
            continue
        if dtype == _FLOAT64 or dtype == _COMPLEX128:
            if np.ndim(a):
                return True
            scalar_float64 = True
        elif dtype.kind in "fc" and np.ndim(a):
            dimensioned_float = True
    return scalar_float64 and not dimensioned_float


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
        out = kwargs.get("out", ())
        written = [t for t in (out if isinstance(out, tuple) else (out,))
                   if isinstance(t, Tensor)]
        if method == "at" and isinstance(inputs[0], Tensor):
            written.append(inputs[0])
        if is_grad_enabled() and (_tracked(inputs, kwargs)
                                  or any(t.requires_grad for t in written)):
            raise NotImplementedError(f"{ufunc.__name__}.{method} (or out=) on tensors that "
                                      "require grad is not supported")
        result = call_untracked(getattr(ufunc, method), *inputs, **kwargs)
        for tensor in written:  # written in place: saved values of it are stale now
            tensor._vbox[0] += 1
        if written and "out" in kwargs:
            return written[0] if len(written) == 1 else tuple(written)
        return result
    if ufunc.nout != 1 and lookup(ufunc) is None:
        return call_untracked(ufunc, *inputs, **kwargs)
    return call(ufunc, *inputs, **kwargs)


def array_function(func: Callable, args: tuple, kwargs: dict) -> Any:
    """``np.sum(t)``, ``np.reshape(t, ...)``...: tracked through the function's rule;
    functions without a rule run untracked unless a float result would lose a gradient.
    ``np.put_along_axis`` into a tensor is the assignment it stands for; NumPy's other
    functions that write into an argument refuse a tensor that requires grad."""
    if lookup(func) is not None:
        return call(func, *args, **kwargs)
    if func is np.put_along_axis and isinstance(args[0] if args else kwargs.get("arr"), Tensor):
        return _put_along_axis(*args, **kwargs)
    if func in _WRITERS and is_grad_enabled() and _nested_tracked(args, kwargs):
        raise NotImplementedError(f"np.{func.__name__} writing into tensors that require grad "
                                  "is not supported: assign with t[index] = value instead")
    if is_grad_enabled() and not is_nondifferentiable(func) and _nested_tracked(args, kwargs):
        result = func(*_deep_unwrap(args), **_deep_unwrap(kwargs))
        if np.asarray(result).dtype.kind in "fc":
            raise NoDerivativeError(_missing_rule_message(func))
        return wrap_untracked(result)
    return wrap_untracked(func(*_deep_unwrap(args), **_deep_unwrap(kwargs)))


_WRITERS = frozenset({np.copyto, np.put, np.place, np.putmask, np.fill_diagonal})


def _put_along_axis(arr: Tensor, indices: Any, values: Any, axis: int | None) -> None:
    """``arr[along_axis_index(arr.shape, indices, axis)] = values``: what NumPy does, here
    recorded as ``index_put`` (repeated places keep the last value)."""
    arr[along_axis_index(arr.shape, unwrap(indices), axis)] = values


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
