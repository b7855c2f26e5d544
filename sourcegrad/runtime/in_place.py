"""In-place operations on tensors (``add_``, ``x *= 2``, ``x[idx] = v``, ``copy_``...),
recorded as PyTorch records them.

The result is computed out of place, checked (shape, dtype, PyTorch's refusals), and
written into the tensor's own array, so every tensor sharing that memory (its views, its
base, ``detach()``-ed copies) sees it; the shared version counter goes up by one, which is
what makes a saved value changed since it was saved an error at backward.

When the operation is recorded (grad mode on, and the tensor or an argument requires grad),
it is one node of the rule table, like its out-of-place twin, whose input 0 is the tensor as
it was; the tensor then takes that node as its ``grad_fn`` (a retained gradient follows it,
hooks stay with the old one). An in-place operation on a view is recorded on its base as a
``views.CopySlices`` node. The node keeps the values its backward reads: an input sharing
the tensor's memory is copied first (its old value is about to be overwritten); the result,
if read, is the tensor's array itself, checked by version like any saved value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import graph, views
from .grad_mode import is_grad_enabled

if TYPE_CHECKING:
    from .dispatch import Op
    from .tensor import Tensor

LEAF_IN_PLACE_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."

# PyTorch's names of dtypes in its messages
_TORCH_TYPE_NAMES = {
    "float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long",
    "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
    "complex64": "ComplexFloat", "complex128": "ComplexDouble",
}


def apply(target: Tensor, op: Op, *args: Any) -> Tensor:
    """``target = op.fn(target, *args)``, written into ``target``'s array (see the module
    docstring); returns ``target``."""
    from . import dispatch

    recording = is_grad_enabled() and target.data.dtype.kind in "fc" and (
        dispatch.requires(target)
        or any(isinstance(a, type(target)) and dispatch.requires(a) for a in args))
    if recording or is_grad_enabled() and target._view is not None and views.base_requires_grad(
            target):
        _refuse(target)  # (a view made under no_grad is refused even if it does not record)
    arrays = tuple(dispatch.unwrap(a) for a in args)
    result = op.as_result(op.runs(target.data, *arrays), (target.data, *arrays))
    _check_fits(target.data, result, arrays)
    if not recording:
        _write(target, result)
        return target
    node = _node(op, target, args, arrays)
    _write(target, result)
    plan = node._backward
    node._saved = (target.data, node._saved[1], node._saved[2])
    if plan.saves_ans:
        node._versions += ((target._vbox, target._vbox[0], target.data, -1),)
    _rebase(target, node)
    return target


def _refuse(target: Tensor) -> None:
    """PyTorch's refusals of an in-place operation that would be recorded."""
    if target._view is not None:
        views.check_in_place(target)
    elif target._grad_fn is None and target._requires_grad:
        raise RuntimeError(LEAF_IN_PLACE_MESSAGE)


def _check_fits(data: np.ndarray, result: np.ndarray, arrays: tuple) -> None:
    """PyTorch's checks of a result about to be written into ``data``."""
    if result.shape != data.shape:
        raise RuntimeError(f"output with shape {list(data.shape)} doesn't match the broadcast "
                           f"shape {list(np.broadcast_shapes(result.shape, data.shape))}")
    if not np.can_cast(result.dtype, data.dtype, "same_kind"):
        raise RuntimeError(f"result type {_torch_type(result.dtype)} can't be cast to the "
                           f"desired output type {_torch_type(data.dtype)}")
    views.refuse_overlapping_write(data)
    for array in arrays:
        if isinstance(array, np.ndarray) and _partly_overlapping(array, data):
            raise RuntimeError(
                "unsupported operation: some elements of the input tensor and the written-to "
                "tensor refer to a single memory location. Please clone() the tensor before "
                "performing the operation.")


def _partly_overlapping(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``a`` and ``b`` share memory without being the same elements (writing one
    while reading the other would read elements already written, in PyTorch)."""
    if not np.may_share_memory(a, b):
        return False
    same = (a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
            and a.shape == b.shape and a.strides == b.strides)
    return not same and np.shares_memory(a, b)


def _torch_type(dtype: np.dtype) -> str:
    return _TORCH_TYPE_NAMES.get(dtype.name, dtype.name)


def _write(target: Tensor, result: np.ndarray) -> None:
    np.copyto(target.data, result, casting="unsafe")
    target._vbox[0] += 1


def _node(op: Op, target: Tensor, args: tuple, arrays: tuple) -> graph.SavedValuesNode:
    """The operation's node, made before ``target`` is overwritten: its inputs are
    ``target`` as it is and the tensors among ``args``."""
    from . import dispatch

    kinds = (dispatch.kind(target), *(dispatch.kind(a) for a in args))
    plan = op.plan_for(kinds)
    if plan is None:
        dispatch.refuse_without_rule(op.fn)
    inputs = [a for a, kind in zip((target, *args), kinds, strict=True) if kind]
    saved_arrays = [target.data, *arrays]
    private = []
    for k in plan.saved_inputs:
        if inputs[k]._vbox is target._vbox:  # its value, about to be overwritten
            position = plan.wheres[k]
            saved_arrays[position] = np.array(saved_arrays[position], copy=True)
            private.append(k)
    for position, value in enumerate(saved_arrays[1:], 1):
        if kinds[position] == 0 and isinstance(value, np.ndarray) and np.may_share_memory(
                value, target.data):
            saved_arrays[position] = np.array(value, copy=True)
    saved = (None, tuple(saved_arrays), {})
    cls = plan.node_class or plan.class_for(saved[1], {})
    return graph.saved_node(cls, plan, inputs, saved, 1, private)


def _rebase(target: Tensor, node: graph.Node) -> None:
    """``target``'s history after its in-place operation ``node``."""
    info = target._view
    if info is None:
        _move_retained(target, node)
        target._grad_fn, target._output_nr = node, 0
        return
    base = info.base
    copy_slices = views.CopySlices(graph.edge_of(base), base.data, info.steps, node)
    _move_retained(base, copy_slices)
    base._grad_fn, base._output_nr = copy_slices, 0
    # (the view's own grad_fn is made again when next asked for: its version changed)


def _move_retained(tensor: Tensor, node: graph.Node) -> None:
    """A retained gradient follows the tensor to its new ``grad_fn``, as in PyTorch."""
    if tensor._retains_grad:
        if tensor._grad_fn is not None:
            tensor._grad_fn.forget_retained(tensor._output_nr)
        node.retain(0, tensor)
