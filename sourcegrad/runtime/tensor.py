"""``sg.Tensor``: an ndarray (``.data``) with PyTorch's autograd attributes.

A tensor is a *leaf* when no recorded operation produced it (``grad_fn is None``); a leaf
that requires grad collects gradients in ``.grad``. Every operation goes through
``dispatch.py`` (one node per operation, backward from the rule table); this module only
maps PyTorch's spelling (``dim``, ``keepdim``, methods, operators) onto NumPy calls.
"""

from __future__ import annotations

import operator
import warnings
from collections import namedtuple
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from . import graph
from .grad_mode import is_grad_enabled
from .printing import tensor_repr

LEAF_IN_PLACE_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."
# PyTorch words it one way when creating a tensor and another when flagging one.
FLOAT_ONLY_AT_CREATION = "Only Tensors of floating point and complex dtype can require gradients"
FLOAT_ONLY_MESSAGE = "only Tensors of floating point dtype can require gradients"
LEAF_FLAG_MESSAGE = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)
NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)

ReductionResult = namedtuple("ReductionResult", ["values", "indices"])


class Size(tuple):
    """A shape; prints as ``sg.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"sg.Size({list(self)})"

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64))


class RemovableHandle:
    """Returned by ``register_hook``: ``.remove()`` unregisters the hook."""

    def __init__(self, hooks: list, hook: Callable) -> None:
        self._hooks = hooks
        self._hook = hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


def _is_floating(dtype: np.dtype) -> bool:
    return dtype.kind in "fc"


def to_array(data: Any, dtype: Any = None) -> np.ndarray:
    """A fresh array from Python data with PyTorch's dtype defaults: float32 for Python
    floats, int64 for ints, and the dtype of an ndarray kept."""
    if isinstance(data, Tensor):
        data = data.data
    if dtype is not None:
        return np.array(data, dtype=dtype)
    array = np.array(data)
    if array.dtype == np.float64 and not _holds_float64_arrays(data):
        return array.astype(np.float32)
    if array.dtype.kind in "iu" and array.dtype != np.int64 and not isinstance(data, np.ndarray):
        return array.astype(np.int64)
    return array


def _holds_float64_arrays(data: Any) -> bool:
    if isinstance(data, (np.ndarray, np.generic)):
        return data.dtype == np.float64
    if isinstance(data, (list, tuple)) and data:
        return _holds_float64_arrays(data[0])
    return False


def _dim_args(dim: Any) -> Any:
    return tuple(dim) if isinstance(dim, list) else dim


def _shape_args(shape: tuple) -> tuple:
    """``reshape(2, 3)`` and ``reshape((2, 3))`` alike."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, Size)):
        return tuple(shape[0])
    return tuple(shape)


class Tensor:
    """An ndarray with autograd: see the module docstring."""

    __slots__ = ("data", "grad_fn", "_output_nr", "_requires_grad", "_grad", "_accum",
                 "_retains_grad", "_version", "__weakref__")
    __array_priority__ = 1000.0

    def __init__(self, data: Any, requires_grad: bool = False) -> None:
        self.data = data if isinstance(data, np.ndarray) else to_array(data)
        self.grad_fn: graph.Node | None = None
        self._output_nr = 0
        self._requires_grad = False
        self._grad: Tensor | None = None
        self._accum: graph.AccumulateGrad | None = None
        self._retains_grad = False
        # Counts in-place modifications; shared with tensors that share the data (detach).
        self._version = [0]
        # (graph.record_saved sets the same attributes on the tensors it makes: in step.)
        if requires_grad:
            if not _is_floating(self.data.dtype):
                raise RuntimeError(FLOAT_ONLY_AT_CREATION)
            self._requires_grad = True

    # ---------------------------------------------------------------- autograd attributes

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad or self.grad_fn is not None

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if self.grad_fn is not None:
            if not flag:
                raise RuntimeError(LEAF_FLAG_MESSAGE)
            return
        if flag and not _is_floating(self.data.dtype):
            raise RuntimeError(FLOAT_ONLY_MESSAGE)
        self._requires_grad = bool(flag)

    def requires_grad_(self, requires_grad: bool = True, *, flag: bool | None = None) -> Tensor:
        """Set ``requires_grad`` on a leaf (``flag`` is the contract's name for the same
        argument; PyTorch's is ``requires_grad``)."""
        self.requires_grad = requires_grad if flag is None else flag
        return self

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def grad(self) -> Tensor | None:
        if self.grad_fn is not None and not self._retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            value = value if isinstance(value, Tensor) else Tensor(np.asarray(value))
            if value.data.shape != self.data.shape:
                raise RuntimeError("assigned grad has data of a different size")
        self._grad = value

    def _accumulator(self) -> graph.AccumulateGrad:
        if self._accum is None:
            self._accum = graph.AccumulateGrad(self)
        return self._accum

    def backward(self, gradient: Any = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs: Any = None) -> None:
        """Accumulate the gradient of this tensor (times ``gradient``) into the leaves, or
        only into ``inputs`` when given."""
        if create_graph:
            raise NotImplementedError("create_graph=True is not supported by the runtime; for "
                                      "higher derivatives use sg.grad on a function")
        grads = graph.root_gradients([self], [gradient])
        if inputs is None:
            graph.run_backward([self], grads, retain_graph=bool(retain_graph))
            return
        inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
        captured = graph.run_backward([self], grads, retain_graph=bool(retain_graph),
                                      capture=inputs)
        for tensor, grad in zip(inputs, captured, strict=True):
            if grad is not None:
                graph.accumulate_into(tensor, grad)

    def detach(self) -> Tensor:
        """The same data, cut from the graph (in-place changes to either are seen by both,
        and by the graph's check of saved values)."""
        detached = Tensor(self.data)
        detached._version = self._version
        return detached

    def _mark_modified(self) -> None:
        self._version[0] += 1

    def detach_(self) -> Tensor:
        self.grad_fn = None
        self._requires_grad = False
        return self

    def retain_grad(self) -> None:
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is not None and not self._retains_grad:
            self.grad_fn.retain(self._output_nr, self)
            self._retains_grad = True

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor
        replaces the gradient."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        node, nr = (self._accumulator(), 0) if self.grad_fn is None else (self.grad_fn,
                                                                            self._output_nr)
        node.add_hook(nr, hook)
        return RemovableHandle(node._hooks[nr], hook)

    # ---------------------------------------------------------------- array attributes

    @property
    def shape(self) -> Size:
        return Size(self.data.shape)

    def size(self, dim: int | None = None) -> Size | int:
        return self.shape if dim is None else self.data.shape[dim]

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    @property
    def ndim(self) -> int:
        return self.data.ndim

    def dim(self) -> int:
        return self.data.ndim

    def numel(self) -> int:
        return int(self.data.size)

    def item(self) -> Any:
        if self.data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self.data.size} elements cannot be converted to Scalar")
        return self.data.item()

    def numpy(self) -> np.ndarray:
        """The underlying array itself (shared memory, as in PyTorch)."""
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        return self.data

    def tolist(self) -> Any:
        return self.data.tolist()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return self.data if dtype is None else self.data.astype(dtype, copy=False)

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        return dispatch.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func: Callable, types: tuple, args: tuple, kwargs: dict) -> Any:
        return dispatch.array_function(func, args, kwargs)

    def __repr__(self) -> str:
        if self.grad_fn is not None:
            suffixes = [f"grad_fn=<{type(self.grad_fn).__name__}>"]
        else:
            suffixes = ["requires_grad=True"] if self._requires_grad else []
        return tensor_repr(self.data, suffixes)

    def __format__(self, spec: str) -> str:
        return format(self.item(), spec) if self.data.ndim == 0 else repr(self)

    def __len__(self) -> int:
        if self.data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return len(self.data)

    def __iter__(self) -> Iterator[Tensor]:
        return (self[i] for i in range(len(self)))

    def __bool__(self) -> bool:
        if self.data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.data)

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        return operator.index(self.data.item())

    __hash__ = object.__hash__

    # ---------------------------------------------------------------- operators
    # (``+ - * / @``, their reflected forms, ``-t`` and ``abs(t)`` are assigned below the
    # class: each is its primitive's ``Op`` call itself.)

    def __pow__(self, other: Any) -> Tensor:
        return self.pow(other)

    def __pos__(self) -> Tensor:
        return self

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return dispatch.call_untracked(np.equal, self, other)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return dispatch.call_untracked(np.not_equal, self, other)

    def __lt__(self, other: Any) -> Tensor:
        return dispatch.call_untracked(np.less, self, other)

    def __le__(self, other: Any) -> Tensor:
        return dispatch.call_untracked(np.less_equal, self, other)

    def __gt__(self, other: Any) -> Tensor:
        return dispatch.call_untracked(np.greater, self, other)

    def __ge__(self, other: Any) -> Tensor:
        return dispatch.call_untracked(np.greater_equal, self, other)

    def __getitem__(self, index: Any) -> Tensor:
        return INDEXING[_index_node_name(index)].binary(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        if self._check_in_place(value):
            raise RuntimeError("sourcegrad does not record assignment into a tensor that is "
                               "part of a graph; build the new tensor out of place instead")
        self.data[dispatch.unwrap(index)] = dispatch.unwrap(value)
        self._mark_modified()

    # ---------------------------------------------------------------- in-place operations

    def _check_in_place(self, other: Any = None) -> bool:
        """Whether an in-place update must be recorded; refuses one on a leaf that requires
        grad while grad mode is on, as PyTorch does."""
        if not is_grad_enabled():
            return False
        if self.grad_fn is None and self._requires_grad:
            raise RuntimeError(LEAF_IN_PLACE_MESSAGE)
        return self.requires_grad or (isinstance(other, Tensor) and other.requires_grad)

    def _in_place(self, ufunc: np.ufunc, other: Any) -> Tensor:
        if self._check_in_place(other):
            # Recorded out of place: nodes that saved the old array keep it intact, and this
            # tensor takes over the result's history.
            result = dispatch.call(ufunc, self, other)
            self.data, self.grad_fn, self._output_nr = result.data, result.grad_fn, 0
            self._version = result._version  # new data: nothing saved reads it yet
            return self
        ufunc(self.data, dispatch.unwrap(other), out=self.data, casting="same_kind")
        self._mark_modified()
        return self

    def __iadd__(self, other: Any) -> Tensor:
        return self._in_place(np.add, other)

    def __isub__(self, other: Any) -> Tensor:
        return self._in_place(np.subtract, other)

    def __imul__(self, other: Any) -> Tensor:
        return self._in_place(np.multiply, other)

    def __itruediv__(self, other: Any) -> Tensor:
        return self._in_place(np.divide, other)

    def add_(self, other: Any, alpha: float = 1) -> Tensor:
        return self._in_place(np.add, other if alpha == 1 else other * alpha)

    def sub_(self, other: Any, alpha: float = 1) -> Tensor:
        return self._in_place(np.subtract, other if alpha == 1 else other * alpha)

    def mul_(self, other: Any) -> Tensor:
        return self._in_place(np.multiply, other)

    def div_(self, other: Any) -> Tensor:
        return self._in_place(np.divide, other)

    def zero_(self) -> Tensor:
        return self.fill_(0)

    def fill_(self, value: float) -> Tensor:
        if self._check_in_place():
            raise RuntimeError("sourcegrad does not record fill_()/zero_() on a tensor that is "
                               "part of a graph; detach it first")
        self.data.fill(value)
        self._mark_modified()
        return self

    def copy_(self, source: Any) -> Tensor:
        if self._check_in_place(source):
            raise RuntimeError("sourcegrad does not record copy_() into a tensor that is part "
                               "of a graph")
        np.copyto(self.data, dispatch.unwrap(source), casting="same_kind")
        self._mark_modified()
        return self

    # ---------------------------------------------------------------- methods
    # (``exp``, ``log``, ``sqrt``, ``tanh``, ``sin``, ``cos``, ``abs``, ``sigmoid``, ``relu``
    # and ``matmul`` are assigned below the class, as the operators are.)

    def pow(self, exponent: Any) -> Tensor:
        """PyTorch names the node by the exponent: a number (0) or a tensor (1)."""
        return (POW_TENSOR if isinstance(exponent, Tensor) else POW).binary(self, exponent)

    def sum(self, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
        op = SUM if dim is None else SUM_DIM
        if dtype is None and not keepdim:
            return op.binary(self, _dim_args(dim))  # np.sum(a, axis)
        return op.positional(self, _dim_args(dim), dtype, None, keepdim)  # all positional

    def mean(self, dim: Any = None, keepdim: bool = False) -> Tensor:
        op = MEAN if dim is None else MEAN_DIM
        if not keepdim:
            return op.binary(self, _dim_args(dim))  # np.mean(a, axis)
        return op.positional(self, _dim_args(dim), None, None, keepdim)

    def max(self, dim: Any = None, keepdim: bool = False) -> Any:
        return self._extreme(np.max, np.argmax, np.maximum, "Max", dim, keepdim)

    def min(self, dim: Any = None, keepdim: bool = False) -> Any:
        return self._extreme(np.min, np.argmin, np.minimum, "Min", dim, keepdim)

    def _extreme(self, reduce: Callable, arg: Callable, elementwise: Callable, stem: str,
                 dim: Any, keepdim: bool) -> Any:
        """PyTorch's ``max``/``min``: of everything, along ``dim`` (values and indices), or
        elementwise against another tensor."""
        if isinstance(dim, Tensor):
            return dispatch.call(elementwise, self, dim)
        if dim is None:
            return dispatch.call_named(f"{stem}Backward1", reduce, (self,), {})
        values = dispatch.call_named(f"{stem}Backward0", reduce, (self,),
                                     {"axis": dim, "keepdims": keepdim})
        indices = Tensor(np.asarray(arg(self.data, axis=dim, keepdims=keepdim)))
        return ReductionResult(values, indices)

    def argmax(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        return Tensor(np.asarray(np.argmax(self.data, axis=dim, keepdims=keepdim)))

    def argmin(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        return Tensor(np.asarray(np.argmin(self.data, axis=dim, keepdims=keepdim)))

    def clamp(self, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002  (PyTorch's names)
        if min is None and max is None:
            raise RuntimeError("sg.clamp: At least one of 'min' or 'max' must not be None")
        return dispatch.call_named("ClampBackward1", np.clip, (self, min, max), {})

    clip = clamp

    def reshape(self, *shape: Any) -> Tensor:
        return VIEW.binary(self, _shape_args(shape))

    def view(self, *shape: Any) -> Tensor:
        return VIEW.binary(self, _shape_args(shape))

    def flatten(self) -> Tensor:
        return self.reshape(-1)

    def transpose(self, dim0: int, dim1: int) -> Tensor:
        return TRANSPOSE.positional(self, dim0, dim1)

    def t(self) -> Tensor:
        return self.transpose(0, 1) if self.data.ndim == 2 else self

    @property
    def T(self) -> Tensor:  # noqa: N802  (PyTorch's name)
        return PERMUTE.unary(self)

    @property
    def real(self) -> Tensor:
        return np.real(self)

    @property
    def imag(self) -> Tensor:
        return np.imag(self)

    def conj(self) -> Tensor:
        return np.conjugate(self)

    def unsqueeze(self, dim: int) -> Tensor:
        return UNSQUEEZE.binary(self, dim)

    def squeeze(self, dim: int | None = None) -> Tensor:
        return SQUEEZE.binary(self, dim)

    def float(self) -> Tensor:
        return self.to(np.float32)

    def double(self) -> Tensor:
        return self.to(np.float64)

    def long(self) -> Tensor:
        return self.to(np.int64)

    def to(self, dtype: Any) -> Tensor:
        """A copy in ``dtype``. Its backward hands the cotangent back unchanged: the engine
        casts every cotangent to its input's dtype."""
        if self.data.dtype == np.dtype(dtype):
            return self
        data = self.data.astype(dtype)
        if not _is_floating(data.dtype):
            return Tensor(data)
        return graph.record("ToCopyBackward0", [self], data, lambda grads: grads)


def _unsqueezed(a: np.ndarray, axis: Any) -> np.ndarray:
    """``np.expand_dims(a, axis)``: for one int ``axis`` (``unsqueeze``'s), the reshape it
    does, without the Python of its general case (a tuple of axes) around it."""
    if type(axis) is not int or not -a.ndim - 1 <= axis <= a.ndim:
        return np.expand_dims(a, axis)  # (and its error for an axis out of range)
    if axis < 0:
        axis += a.ndim + 1
    return a.reshape(a.shape[:axis] + (1,) + a.shape[axis:])


def _index_node_name(index: Any) -> str:
    """PyTorch names indexing by what the index holds."""
    if type(index) is int:  # the most frequent indices, answered first
        return "SelectBackward0"
    if type(index) is slice:
        return "SliceBackward0"
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, (list, np.ndarray, Tensor)) for p in parts):
        return "IndexBackward0"
    if any(isinstance(p, int) for p in parts):
        return "SelectBackward0"
    return "SliceBackward0"


graph._Tensor = Tensor

# dispatch and the nn primitives need ``Tensor`` and ``graph``; imported last on purpose.
from ..nn import ops as nn_ops  # noqa: E402
from . import dispatch  # noqa: E402

# The primitives behind the operators and methods, each prepared once (``dispatch.Op``).
_Op = dispatch.Op
ADD, SUB, MUL, DIV = _Op(np.add), _Op(np.subtract), _Op(np.multiply), _Op(np.divide)
RSUB = _Op(np.subtract, "RsubBackward1")
POW, POW_TENSOR = _Op(np.power, "PowBackward0"), _Op(np.power, "PowBackward1")
RPOW = _Op(np.power, "PowBackward2")
MATMUL, NEG = _Op(np.matmul), _Op(np.negative)
# np.sum(a, axis, dtype, out, keepdims) on an ndarray is np.add.reduce with the same arguments,
# behind a Python wrapper that costs more than the sum of ten numbers. PyTorch names a
# reduction by whether it has a ``dim`` (``SumBackward0``/``1``): one Op for each.
SUM = _Op(np.sum, "SumBackward0", runs=np.add.reduce)
SUM_DIM = _Op(np.sum, "SumBackward1", runs=np.add.reduce)
# np.mean, np.reshape, np.swapaxes, np.transpose and np.squeeze call the ndarray method of
# the same name, with the same arguments, through a Python wrapper.
MEAN = _Op(np.mean, "MeanBackward0", runs=np.ndarray.mean)
MEAN_DIM = _Op(np.mean, "MeanBackward1", runs=np.ndarray.mean)
VIEW = _Op(np.reshape, "ViewBackward0", runs=np.ndarray.reshape)
TRANSPOSE = _Op(np.swapaxes, "TransposeBackward0", runs=np.ndarray.swapaxes)
PERMUTE = _Op(np.transpose, "PermuteBackward0", runs=np.ndarray.transpose)
SQUEEZE = _Op(np.squeeze, "SqueezeBackward0", runs=np.ndarray.squeeze)
UNSQUEEZE = _Op(np.expand_dims, "UnsqueezeBackward0", runs=_unsqueezed)
# Indexing, by the node name PyTorch gives it (``_index_node_name``).
INDEXING = {name: _Op(operator.getitem, name)
            for name in ("SelectBackward0", "SliceBackward0", "IndexBackward0")}
EXP, LOG, SQRT, TANH = _Op(np.exp), _Op(np.log), _Op(np.sqrt), _Op(np.tanh)
SIN, COS, ABS = _Op(np.sin), _Op(np.cos), _Op(np.abs)
SIGMOID, RELU = _Op(nn_ops.sigmoid), _Op(nn_ops.relu)

# The operators and methods that are one primitive each: the Op's call itself, so that
# ``x * 2.0`` or ``x.tanh()`` runs no Python method in between (the most frequent calls
# of the runtime; ``sg.tanh`` and the other functions of ``functions.py`` are the same).
Tensor.__add__, Tensor.__radd__ = ADD.binary, ADD.reflected
Tensor.__sub__, Tensor.__rsub__ = SUB.binary, RSUB.reflected
Tensor.__mul__, Tensor.__rmul__ = MUL.binary, MUL.reflected
Tensor.__truediv__, Tensor.__rtruediv__ = DIV.binary, DIV.reflected
Tensor.__rpow__ = RPOW.reflected
Tensor.__matmul__, Tensor.__rmatmul__ = MATMUL.binary, MATMUL.reflected
Tensor.matmul = MATMUL.binary
Tensor.__neg__ = NEG.unary
Tensor.__abs__ = Tensor.abs = ABS.unary
Tensor.exp, Tensor.log, Tensor.sqrt, Tensor.tanh = EXP.unary, LOG.unary, SQRT.unary, TANH.unary
Tensor.sin, Tensor.cos = SIN.unary, COS.unary
Tensor.sigmoid, Tensor.relu = SIGMOID.unary, RELU.unary
