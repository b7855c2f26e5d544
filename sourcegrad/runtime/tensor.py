"""``sg.Tensor``: an ndarray (``.data``) with PyTorch's autograd attributes.

A tensor is a *leaf* when no recorded operation produced it (``grad_fn is None``); a leaf
that requires grad collects gradients in ``.grad``. Every operation goes through
``dispatch.py`` (one node per operation, backward from the rule table); this module only
maps PyTorch's spelling (``dim``, ``keepdim``, methods, operators) onto NumPy calls.
"""

from __future__ import annotations

import copy
import operator
import warnings
from collections import namedtuple
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from . import graph, in_place, views
from .grad_mode import is_grad_enabled
from .printing import tensor_repr

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

T_OF_0D_WARNING = ("Tensor.T is deprecated on 0-D tensors. This function is the identity in "
                   "these cases.")
T_OF_ND_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
    "deprecated and it will throw an error in a future release. Consider `x.mT` to transpose "
    "batches of matrices or `x.permute(*sg.arange(x.ndim - 1, -1, -1))` to reverse the "
    "dimensions of a tensor."
)

ReductionResult = namedtuple("ReductionResult", ["values", "indices"])


class Size(tuple):
    """A tensor's shape: a tuple of ints that prints as PyTorch's ``torch.Size``.

    A shape; prints as ``sg.Size([2, 3])``.

    >>> sg.zeros(2, 3).shape
    sg.Size([2, 3])
    >>> sg.zeros(2, 3).shape[1]
    3
    """

    def __repr__(self) -> str:
        return f"sg.Size({list(self)})"

    def numel(self) -> int:
        """The number of elements of a tensor of this shape.

        >>> sg.Size([2, 3]).numel()
        6
        """
        return int(np.prod(self, dtype=np.int64))


# PyTorch's C names of dtypes, and its tensor type names, in its messages
_C_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
                 "int64": "long int", "int32": "int", "int16": "short int",
                 "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
                 "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}
_TYPE_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long",
               "int32": "Int", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _grad_dtype_message(given: np.dtype, own: np.dtype) -> str:
    given_name = _C_TYPE_NAMES.get(given.name, given.name)
    own_name = _TYPE_NAMES.get(own.name, own.name)
    return (f"attempting to assign a gradient with dtype '{given_name}' to a tensor with "
            f"grad_dtype '{own_name}'. The gradient must match the tensor's grad_dtype "
            "(defaults to the tensor's dtype).")


def _is_floating(dtype: np.dtype) -> bool:
    return dtype.kind in "fc"


def to_array(data: Any, dtype: Any = None) -> np.ndarray:
    """A fresh array from Python data with PyTorch's dtype defaults: float32 for Python
    floats, int64 for ints, and the dtype of an ndarray kept."""
    if isinstance(data, Tensor):
        data = data.data
    try:
        return _new_array(data, dtype)
    except RuntimeError:  # a tensor that requires grad in a list: its values, as torch takes
        return _new_array(_detached(data), dtype)


def _new_array(data: Any, dtype: Any) -> np.ndarray:
    if dtype is not None:
        return np.array(data, dtype=dtype)
    array = np.array(data)
    if array.dtype == np.float64 and not _holds_float64_arrays(data):
        return array.astype(np.float32)
    if array.dtype.kind in "iu" and array.dtype != np.int64 and not isinstance(data, np.ndarray):
        return array.astype(np.int64)
    return array


def _detached(data: Any) -> Any:
    """Nested lists with the tensors in them replaced by their arrays: ``sg.tensor([t[0],
    t[1]])`` copies values, as ``torch.tensor`` does (NumPy would ask each tensor for its
    array, which one that requires grad refuses: ``Tensor.__array__``)."""
    if isinstance(data, Tensor):
        return data.data
    if isinstance(data, (list, tuple)):
        return [_detached(d) for d in data]
    return data


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
    """An ndarray with autograd: see the module docstring.

    ``x.data`` is the ndarray it holds. ``d/dx sum(x * x) = 2x``:

    >>> x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> y = (x * x).sum()
    >>> y
    tensor(14., grad_fn=<SumBackward0>)
    >>> y.backward()
    >>> x.grad
    tensor([2., 4., 6.])
    >>> x.data
    array([1., 2., 3.], dtype=float32)
    """

    __slots__ = ("data", "_grad_fn", "_output_nr", "_requires_grad", "_grad", "_accum",
                 "_retains_grad", "_vbox", "_view", "__weakref__")
    __array_priority__ = 1000.0

    def __init__(self, data: Any, requires_grad: bool = False) -> None:
        self.data = data if isinstance(data, np.ndarray) else to_array(data)
        self._grad_fn: graph.Node | None = None
        self._output_nr = 0
        self._requires_grad = False
        self._grad: Tensor | None = None
        self._accum: graph.AccumulateGrad | None = None
        self._retains_grad = False
        # The version counter (``[count]``): in-place modifications, shared with the tensors
        # sharing the data (views, their base, ``detach()``).
        self._vbox = [0]
        # What a view knows of its base (``views.ViewInfo``), or None.
        self._view: views.ViewInfo | None = None
        # (graph.record_saved sets the same attributes on the tensors it makes: in step.)
        if requires_grad:
            if not _is_floating(self.data.dtype):
                raise RuntimeError(FLOAT_ONLY_AT_CREATION)
            self._requires_grad = True

    # ---------------------------------------------------------------- autograd attributes

    @property
    def grad_fn(self) -> graph.Node | None:
        """The node that made this tensor (None for a leaf); a view's is made again after
        its base changed in place (``views.refresh``).

        >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> x.grad_fn is None
        True
        >>> (x * 3).grad_fn.name()
        'MulBackward0'
        """
        if self._view is not None:
            views.refresh(self)
        return self._grad_fn

    @property
    def _version(self) -> int:
        """How many times this tensor's data (shared with its views) was changed in place."""
        return self._vbox[0]

    @property
    def _base(self) -> Tensor | None:
        """The tensor this one is a view of, or None."""
        return None if self._view is None else self._view.base

    def _is_view(self) -> bool:
        return self._view is not None

    @property
    def requires_grad(self) -> bool:
        """Whether operations on this tensor are recorded (settable on a leaf).

        >>> x = sg.tensor([1.0, 2.0])
        >>> x.requires_grad
        False
        >>> x.requires_grad = True
        >>> (x * 2).requires_grad
        True
        """
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
        argument; PyTorch's is ``requires_grad``).

        >>> x = sg.zeros(2).requires_grad_()
        >>> x.requires_grad
        True
        """
        self.requires_grad = requires_grad if flag is None else flag
        return self

    @property
    def is_leaf(self) -> bool:
        """Whether no recorded operation made this tensor (``grad_fn is None``).

        >>> x = sg.tensor([1.0], requires_grad=True)
        >>> x.is_leaf, (x + 1).is_leaf
        (True, False)
        """
        return self.grad_fn is None

    @property
    def grad(self) -> Tensor | None:
        """The gradient accumulated by ``backward`` (a leaf's, or a non-leaf's after
        ``retain_grad()``); ``None`` until then.

        Gradients add up across calls of ``backward``:

        >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> x.grad is None
        True
        >>> (3 * x).sum().backward()
        >>> (3 * x).sum().backward()
        >>> x.grad
        tensor([6., 6.])
        """
        if self.grad_fn is not None and not self._retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            # (an array or a list is taken as this tensor's dtype; a tensor must have it, as
            # in PyTorch: gradients would be accumulated into it, rounded to its dtype)
            value = value if isinstance(value, Tensor) else Tensor(
                np.asarray(value, dtype=self.data.dtype))
            if value.data.shape != self.data.shape:
                raise RuntimeError("assigned grad has data of a different size")
            if value.data.dtype != self.data.dtype:
                raise RuntimeError(_grad_dtype_message(value.data.dtype, self.data.dtype))
        self._grad = value

    def _accumulator(self) -> graph.AccumulateGrad:
        if self._accum is None:
            self._accum = graph.AccumulateGrad(self)
        return self._accum

    def backward(self, gradient: Any = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs: Any = None) -> None:
        """Accumulate the gradient of this tensor (times ``gradient``) into the leaves, or
        only into ``inputs`` when given.

        ``d/dx sum(x**2) = 2x``; for a non-scalar output, ``gradient`` weighs each element:

        >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> (x ** 2).sum().backward()
        >>> x.grad
        tensor([2., 4.])
        >>> x.grad = None
        >>> (x ** 2).backward(gradient=sg.tensor([1.0, 0.5]))
        >>> x.grad
        tensor([2., 2.])
        """
        if isinstance(inputs, Tensor):
            inputs = [inputs]
        graph.backward([self], [gradient], retain_graph, create_graph,
                       None if inputs is None else list(inputs))

    def detach(self) -> Tensor:
        """The same data, cut from the graph (in-place changes to either are seen by both,
        and by the graph's check of saved values).

        >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> y = (x * 2).detach()
        >>> y.requires_grad, y.is_leaf
        (False, True)
        """
        detached = Tensor(self.data)
        detached._vbox = self._vbox
        return detached

    def _mark_modified(self) -> None:
        self._vbox[0] += 1

    def detach_(self) -> Tensor:
        """Cut this tensor from the graph in place: it becomes a leaf that does not
        require grad.

        >>> x = sg.tensor([1.0], requires_grad=True)
        >>> y = x * 2
        >>> y.detach_().requires_grad, y.is_leaf
        (False, True)
        """
        if self._view is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are "
                               "using DistributedDataParallel (DDP) for training, and "
                               "gradient_as_bucket_view is set as True, gradients are views "
                               "of DDP buckets, and hence detach_() cannot be called on these "
                               "gradients. To fix this error, please refer to the "
                               "Optimizer.zero_grad() function in torch/optim/optimizer.py as "
                               "the solution.")
        self._grad_fn = None
        self._requires_grad = False
        return self

    def retain_grad(self) -> None:
        """Keep this non-leaf's gradient in ``.grad`` when ``backward`` runs.

        ``d/dy sum(y**2) = 2y`` with ``y = 2x``:

        >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> y = 2 * x
        >>> y.retain_grad()
        >>> (y ** 2).sum().backward()
        >>> y.grad
        tensor([4., 8.])
        """
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is not None and not self._retains_grad:
            self.grad_fn.retain(self._output_nr, self)
            self._retains_grad = True

    @property
    def retains_grad(self) -> bool:
        """Whether ``retain_grad()`` was called on this non-leaf.

        >>> x = sg.tensor([1.0], requires_grad=True)
        >>> y = x * 2
        >>> y.retains_grad
        False
        >>> y.retain_grad()
        >>> y.retains_grad
        True
        """
        return self._retains_grad

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> graph.RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor
        replaces the gradient.

        The hook sees ``d/dx sum(3x) = 3`` and doubles it:

        >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> handle = x.register_hook(lambda grad: grad * 2)
        >>> (3 * x).sum().backward()
        >>> x.grad
        tensor([6., 6.])
        >>> handle.remove()
        """
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        node, nr = (self._accumulator(), 0) if self.grad_fn is None else (self.grad_fn,
                                                                            self._output_nr)
        return node.add_hook(nr, hook)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]
                                           ) -> graph.RemovableHandle:
        """Call ``hook(tensor)`` once a gradient has been accumulated into this leaf's
        ``.grad`` (PyTorch's hook for optimizer steps during backward).

        >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> _ = x.register_post_accumulate_grad_hook(lambda t: print("grad:", t.grad))
        >>> (3 * x).sum().backward()
        grad: tensor([3., 3.])
        """
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require "
                               "gradient")
        return self._accumulator().add_hook("post_accumulate", hook)

    @property
    def output_nr(self) -> int:
        """Which output of its ``grad_fn`` this tensor is.

        >>> x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
        >>> [piece.output_nr for piece in x.split(1)]
        [0, 1, 2]
        """
        return self._output_nr

    # ---------------------------------------------------------------- array attributes

    @property
    def shape(self) -> Size:
        """The shape, as a ``sg.Size`` (a tuple).

        >>> sg.zeros(2, 3).shape
        sg.Size([2, 3])
        """
        return Size(self.data.shape)

    def size(self, dim: int | None = None) -> Size | int:
        """The shape, or the size of dimension ``dim``.

        >>> x = sg.zeros(2, 3)
        >>> x.size(), x.size(1), x.size(-1)
        (sg.Size([2, 3]), 3, 3)
        """
        return self.shape if dim is None else self.data.shape[dim]

    @property
    def dtype(self) -> np.dtype:
        """The NumPy dtype of the data.

        >>> sg.tensor([1.0]).dtype, sg.tensor([1]).dtype
        (dtype('float32'), dtype('int64'))
        """
        return self.data.dtype

    @property
    def ndim(self) -> int:
        """The number of dimensions.

        >>> sg.zeros(2, 3).ndim
        2
        """
        return self.data.ndim

    def dim(self) -> int:
        """The number of dimensions (``ndim``).

        >>> sg.zeros(2, 3).dim()
        2
        """
        return self.data.ndim

    def numel(self) -> int:
        """The number of elements.

        >>> sg.zeros(2, 3).numel()
        6
        """
        return int(self.data.size)

    def item(self) -> Any:
        """The value of a one-element tensor as a Python number.

        >>> sg.tensor([2.5]).item()
        2.5
        """
        if self.data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self.data.size} elements cannot be converted to Scalar")
        return self.data.item()

    def numpy(self) -> np.ndarray:
        """The underlying array itself (shared memory, as in PyTorch); refused for a tensor
        that requires grad unless grad mode is off.

        >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> x.detach().numpy()
        array([1., 2.], dtype=float32)
        """
        if self.requires_grad and is_grad_enabled():
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        return self.data

    def tolist(self) -> Any:
        """The data as (nested) Python lists of numbers.

        >>> sg.tensor([[1.0, 2.0], [3.0, 4.0]]).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
        """
        return self.data.tolist()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """What NumPy makes of a tensor it does not dispatch on (``np.r_[t, ...]``,
        ``np.asarray(t)``): refused, as ``numpy()`` and PyTorch refuse it, for a tensor that
        requires grad while grad mode is on, since the result would silently lose its
        gradient."""
        if self.requires_grad and is_grad_enabled():
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
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

    # ---------------------------------------------------------------- pickling, deepcopy

    def __reduce_ex__(self, protocol: Any) -> tuple:
        """Pickled as PyTorch pickles a tensor: its data and ``requires_grad`` (a tensor with
        history loads as a leaf; ``.grad`` is not kept)."""
        return (_rebuilt, (self.data, self.requires_grad))

    def __deepcopy__(self, memo: dict) -> Tensor:
        """A leaf with a copy of the data, ``requires_grad`` and ``.grad``, as in PyTorch;
        a tensor with history is refused, as in PyTorch."""
        if self.grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the "
                "deepcopy protocol at the moment.  If you were attempting to deepcopy a "
                "module, this may be because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001")
        copied = Tensor(copy.deepcopy(self.data, memo), requires_grad=self._requires_grad)
        memo[id(self)] = copied
        if self._grad is not None:
            copied._grad = copy.deepcopy(self._grad, memo)
        return copied

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

    # logical operators, on boolean tensors (masks)

    def __and__(self, other: Any) -> Tensor:
        return dispatch.call_untracked(np.bitwise_and, self, other)

    def __or__(self, other: Any) -> Tensor:
        return dispatch.call_untracked(np.bitwise_or, self, other)

    def __xor__(self, other: Any) -> Tensor:
        return dispatch.call_untracked(np.bitwise_xor, self, other)

    def __invert__(self) -> Tensor:
        return dispatch.call_untracked(np.invert, self)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def __getitem__(self, index: Any) -> Tensor:
        return INDEXING[_index_node_name(index)].binary(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        """PyTorch's assignment: into the view ``self[index]`` (``copy_``) for a basic index,
        ``index_put_`` for an advanced one; recorded when anything requires grad."""
        index = dispatch.unwrap(index)
        if _is_basic(index):
            region = self[index]
            if region._view is not None:
                region.copy_(value)
                return
        in_place.apply(self, INDEX_PUT, index, value)

    # ---------------------------------------------------------------- in-place operations
    # (``add_``, ``mul_``, ``exp_``... are assigned below the class; ``in_place.py`` says
    # how they are recorded.)

    def __iadd__(self, other: Any) -> Tensor:
        return in_place.apply(self, ADD, other)

    def __isub__(self, other: Any) -> Tensor:
        return in_place.apply(self, SUB, other)

    def __imul__(self, other: Any) -> Tensor:
        return in_place.apply(self, MUL, other)

    def __itruediv__(self, other: Any) -> Tensor:
        return in_place.apply(self, DIV, other)

    def __ipow__(self, other: Any) -> Tensor:
        return self.pow_(other)

    def add_(self, other: Any, alpha: float = 1) -> Tensor:
        """``self += alpha * other``, in place.

        >>> x = sg.tensor([1.0, 2.0])
        >>> x.add_(sg.tensor([1.0, 1.0]), alpha=10)
        tensor([11., 12.])
        """
        return in_place.apply(self, ADD, other if alpha == 1 else other * alpha)

    def sub_(self, other: Any, alpha: float = 1) -> Tensor:
        """``self -= alpha * other``, in place.

        >>> x = sg.tensor([1.0, 2.0])
        >>> x.sub_(0.5)
        tensor([0.5000, 1.5000])
        """
        return in_place.apply(self, SUB, other if alpha == 1 else other * alpha)

    def mul_(self, other: Any) -> Tensor:
        """``self *= other``, in place; recorded, so gradients flow through it.

        ``y = 3x`` made in place on a copy of ``x``:

        >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x.clone()
        >>> y.mul_(3)
        tensor([3., 6.], grad_fn=<MulBackward0>)
        >>> y.sum().backward()
        >>> x.grad
        tensor([3., 3.])
        """
        return in_place.apply(self, MUL, other)

    def div_(self, other: Any) -> Tensor:
        """``self /= other``, in place.

        >>> sg.tensor([1.0, 2.0]).div_(4)
        tensor([0.2500, 0.5000])
        """
        return in_place.apply(self, DIV, other)

    def pow_(self, exponent: Any) -> Tensor:
        """``self **= exponent``, in place.

        >>> sg.tensor([2.0, 3.0]).pow_(2)
        tensor([4., 9.])
        """
        return in_place.apply(self, POW_TENSOR if isinstance(exponent, Tensor) else POW,
                              exponent)

    def clamp_(self, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
        """``clamp`` in place (``clip_`` is the same).

        >>> sg.tensor([-2.0, 0.5, 3.0]).clamp_(min=0.0, max=1.0)
        tensor([0.0000, 0.5000, 1.0000])
        """
        _check_clamp_bounds(min, max)
        return in_place.apply(self, CLAMP, min, max)

    clip_ = clamp_

    def zero_(self) -> Tensor:
        """Fill with zeros, in place.

        >>> sg.ones(3).zero_()
        tensor([0., 0., 0.])
        """
        return in_place.apply(self, ZERO, 0)

    def fill_(self, value: Any) -> Tensor:
        """Fill with ``value``, in place.

        >>> sg.zeros(3).fill_(7.0)
        tensor([7., 7., 7.])
        """
        return in_place.apply(self, FILL, value)

    def copy_(self, src: Any) -> Tensor:
        """Copy ``src`` (broadcast to this shape) into this tensor, in place.

        >>> x = sg.zeros(2, 2)
        >>> x.copy_(sg.tensor([1.0, 2.0]))
        tensor([[1., 2.],
                [1., 2.]])
        """
        return in_place.apply(self, COPY, src)

    # ---------------------------------------------------------------- methods
    # (``exp``, ``log``, ``sqrt``, ``tanh``, ``sin``, ``cos``, ``abs``, ``sigmoid``, ``relu``
    # and ``matmul`` are assigned below the class, as the operators are.)

    def pow(self, exponent: Any) -> Tensor:
        """``self ** exponent``, elementwise.

        PyTorch names the node by the exponent: a number (0) or a tensor (1).

        ``d/dx x**3 = 3x**2``:

        >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> x.pow(3).sum().backward()
        >>> x.grad
        tensor([ 3., 12.])
        """
        return (POW_TENSOR if isinstance(exponent, Tensor) else POW).binary(self, exponent)

    def sum(self, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
        """The sum of all elements, or along ``dim`` (one or several).

        >>> x = sg.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> x.sum(), x.sum(0), x.sum(dim=1, keepdim=True)
        (tensor(10.), tensor([4., 6.]), tensor([[3.],
                [7.]]))
        """
        op = SUM if dim is None else SUM_DIM
        if dtype is None and not keepdim:
            return op.binary(self, _dim_args(dim))  # np.sum(a, axis)
        return op.positional(self, _dim_args(dim), dtype, None, keepdim)  # all positional

    def mean(self, dim: Any = None, keepdim: bool = False) -> Tensor:
        """The mean of all elements, or along ``dim``.

        ``d/dx mean(x) = 1/n``:

        >>> x = sg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        >>> x.mean(1)
        tensor([1.5000, 3.5000], grad_fn=<MeanBackward1>)
        >>> x.mean().backward()
        >>> x.grad
        tensor([[0.2500, 0.2500],
                [0.2500, 0.2500]])
        """
        op = MEAN if dim is None else MEAN_DIM
        if not keepdim:
            return op.binary(self, _dim_args(dim))  # np.mean(a, axis)
        return op.positional(self, _dim_args(dim), None, None, keepdim)

    def max(self, dim: Any = None, keepdim: bool = False) -> Any:
        """The largest element; along ``dim``, ``(values, indices)``; given a tensor,
        the elementwise maximum.

        >>> x = sg.tensor([[1.0, 5.0], [4.0, 2.0]])
        >>> x.max()
        tensor(5.)
        >>> values, indices = x.max(dim=1)
        >>> values, indices
        (tensor([5., 4.]), tensor([1, 0]))
        >>> x.max(sg.tensor([3.0, 3.0]))
        tensor([[3., 5.],
                [4., 3.]])
        """
        return self._extreme(np.max, np.argmax, np.maximum, "Max", dim, keepdim)

    def min(self, dim: Any = None, keepdim: bool = False) -> Any:
        """The smallest element; along ``dim``, ``(values, indices)``; given a tensor,
        the elementwise minimum.

        >>> x = sg.tensor([[1.0, 5.0], [4.0, 2.0]])
        >>> x.min(), x.min(dim=0).values
        (tensor(1.), tensor([1., 2.]))
        """
        return self._extreme(np.min, np.argmin, np.minimum, "Min", dim, keepdim)

    def _extreme(self, reduce: Callable, arg: Callable, elementwise: Callable, stem: str,
                 dim: Any, keepdim: bool) -> Any:
        """PyTorch's ``max``/``min``: of everything, along ``dim`` (values and indices), or
        elementwise against another tensor. Along ``dim`` the values are the elements the
        indices name, so that, as in PyTorch, a tie's gradient goes to that element (of
        everything, it is shared evenly among tied elements, as in PyTorch too)."""
        if isinstance(dim, Tensor):
            return dispatch.call(elementwise, self, dim)
        if dim is None:
            return dispatch.call_named(f"{stem}Backward1", reduce, (self,), {})
        if not self.data.ndim:  # (a number along dim 0 or -1: itself, at index 0)
            values = dispatch.call_named(f"{stem}Backward0", reduce, (self,),
                                         {"axis": dim, "keepdims": keepdim})
            return ReductionResult(values, Tensor(np.asarray(0, dtype=np.int64)))
        from .operations import _picking  # (operations is built on this module)

        positions = np.asarray(arg(self.data, axis=dim, keepdims=True))
        values = dispatch.call_named(f"{stem}Backward0", operator.getitem,
                                     (self, _picking(positions, dim, keepdim)), {})
        indices = positions if keepdim else np.squeeze(positions, dim)
        return ReductionResult(values, Tensor(indices))

    def all(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        """Whether every element (along ``dim``) is true: a bool tensor, never tracked.

        >>> x = sg.tensor([[1.0, 0.0], [2.0, 3.0]])
        >>> (x > 0).all(), (x > 0).all(dim=1)
        (tensor(False), tensor([False,  True]))
        """
        return Tensor(np.asarray(np.all(self.data, axis=dim, keepdims=keepdim)))

    def any(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        """Whether some element (along ``dim``) is true: a bool tensor, never tracked.

        >>> x = sg.tensor([[1.0, 0.0], [2.0, 3.0]])
        >>> (x > 2).any(), (x > 2).any(dim=0)
        (tensor(True), tensor([False,  True]))
        """
        return Tensor(np.asarray(np.any(self.data, axis=dim, keepdims=keepdim)))

    def argmax(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        """The index of the largest element (of the flattened tensor, or along ``dim``).

        >>> x = sg.tensor([[1.0, 5.0], [4.0, 2.0]])
        >>> x.argmax(), x.argmax(dim=1)
        (tensor(1), tensor([1, 0]))
        """
        return Tensor(np.asarray(np.argmax(self.data, axis=dim, keepdims=keepdim)))

    def argmin(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        """The index of the smallest element (of the flattened tensor, or along ``dim``).

        >>> x = sg.tensor([[1.0, 5.0], [4.0, 2.0]])
        >>> x.argmin(), x.argmin(dim=0)
        (tensor(0), tensor([0, 1]))
        """
        return Tensor(np.asarray(np.argmin(self.data, axis=dim, keepdims=keepdim)))

    def clamp(self, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002  (PyTorch's names)
        """Each element limited to ``[min, max]`` (either may be omitted); ``clip`` is the
        same. The gradient is 1 inside the range, 0 outside.

        >>> x = sg.tensor([-2.0, 0.5, 3.0], requires_grad=True)
        >>> x.clamp(min=0.0, max=1.0)
        tensor([0.0000, 0.5000, 1.0000], grad_fn=<ClampBackward1>)
        >>> x.clamp(0.0, 1.0).sum().backward()
        >>> x.grad
        tensor([0., 1., 0.])
        """
        _check_clamp_bounds(min, max)
        return CLAMP.positional(self, min, max)

    clip = clamp

    def reshape(self, *shape: Any) -> Tensor:
        """A view when the data allows one, a copy otherwise (PyTorch's node names).

        >>> sg.arange(6).reshape(2, 3)
        tensor([[0, 1, 2],
                [3, 4, 5]])
        >>> sg.arange(6).reshape(-1, 2).shape
        sg.Size([3, 2])
        """
        out = VIEW.binary(self, _shape_args(shape))
        if out._view is None and out.data.size and (out.requires_grad or self.requires_grad):
            return RESHAPE_COPY.binary(self, _shape_args(shape))
        return out

    def view(self, *shape: Any) -> Tensor:
        """A view with another shape, sharing the data (PyTorch refuses it where the
        data's layout does not allow one: ``reshape`` copies then).

        >>> x = sg.zeros(4)
        >>> v = x.view(2, 2)
        >>> v[0, 1] = 5.0
        >>> x
        tensor([0., 5., 0., 0.])
        """
        out = VIEW.binary(self, _shape_args(shape))
        if out._view is None and out.data.size:
            raise RuntimeError("view size is not compatible with input tensor's size and "
                               "stride (at least one dimension spans across two contiguous "
                               "subspaces). Use .reshape(...) instead.")
        return out

    def view_as(self, other: Tensor) -> Tensor:
        """``view`` with ``other``'s shape.

        >>> sg.arange(4.0).view_as(sg.zeros(2, 2))
        tensor([[0., 1.],
                [2., 3.]])
        """
        return self.view(other.shape)

    def reshape_as(self, other: Tensor) -> Tensor:
        """``reshape`` to ``other``'s shape.

        >>> sg.arange(4.0).reshape_as(sg.zeros(2, 2)).shape
        sg.Size([2, 2])
        """
        return self.reshape(other.shape)

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        """Dimensions ``start_dim`` to ``end_dim`` as one; a tensor that already has them
        as one is returned itself, as in PyTorch.

        >>> x = sg.zeros(2, 3, 4)
        >>> x.flatten().shape, x.flatten(1).shape, x.flatten(0, 1).shape
        (sg.Size([24]), sg.Size([2, 12]), sg.Size([6, 4]))
        """
        ndim = self.data.ndim
        if ndim == 0:
            return self.reshape(1)
        start, end = start_dim % ndim, end_dim % ndim
        if start == end:
            return self
        shape = self.data.shape
        return self.reshape(*shape[:start], -1, *shape[end + 1:])

    def transpose(self, dim0: int, dim1: int) -> Tensor:
        """A view with dimensions ``dim0`` and ``dim1`` swapped (``swapaxes`` is the same).

        >>> sg.zeros(2, 3, 4).transpose(0, 2).shape
        sg.Size([4, 3, 2])
        """
        return TRANSPOSE.positional(self, dim0, dim1)

    swapaxes = transpose

    def permute(self, *dims: Any) -> Tensor:
        """A view with its dimensions in the order ``dims``.

        >>> sg.zeros(2, 3, 4).permute(2, 0, 1).shape
        sg.Size([4, 2, 3])
        """
        return PERMUTE.binary(self, _shape_args(dims))

    def t(self) -> Tensor:
        """The transpose of a matrix (a vector or a number: a view of itself).

        >>> sg.tensor([[1.0, 2.0], [3.0, 4.0]]).t()
        tensor([[1., 3.],
                [2., 4.]])
        """
        if self.data.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                               f"{self.data.ndim}D")
        return (T_2D if self.data.ndim == 2 else T_LOW).unary(self)

    @property
    def T(self) -> Tensor:  # noqa: N802  (PyTorch's name)
        """The transpose: the dimensions reversed (PyTorch warns unless the tensor is
        a matrix).

        >>> sg.tensor([[1.0, 2.0, 3.0]]).T
        tensor([[1.],
                [2.],
                [3.]])
        """
        if self.data.ndim != 2:
            warnings.warn(T_OF_0D_WARNING if self.data.ndim == 0 else T_OF_ND_WARNING,
                          UserWarning, stacklevel=2)
        return PERMUTE.unary(self)

    @property
    def real(self) -> Tensor:
        """The real part (a view of a real tensor itself).

        >>> sg.tensor(np.array([1.0 + 2.0j])).real
        tensor([1.], dtype=sg.float64)
        """
        return np.real(self)

    @property
    def imag(self) -> Tensor:
        """The imaginary part of a complex tensor.

        >>> sg.tensor(np.array([1.0 + 2.0j])).imag
        tensor([2.], dtype=sg.float64)
        """
        return np.imag(self)

    def conj(self) -> Tensor:
        """The complex conjugate (a real tensor: itself).

        >>> sg.tensor(np.array([1.0 + 2.0j])).conj().imag
        tensor([-2.], dtype=sg.float64)
        """
        return np.conjugate(self)

    def unsqueeze(self, dim: int) -> Tensor:
        """A view with a new dimension of size 1 at ``dim``.

        >>> sg.zeros(2, 3).unsqueeze(1).shape
        sg.Size([2, 1, 3])
        """
        return UNSQUEEZE.binary(self, dim)

    def squeeze(self, dim: Any = None) -> Tensor:
        """PyTorch names the node by the argument (none, a dim, dims); a dim whose size is
        not 1 is left alone.

        >>> x = sg.zeros(2, 1, 3, 1)
        >>> x.squeeze().shape, x.squeeze(1).shape, x.squeeze(0).shape
        (sg.Size([2, 3]), sg.Size([2, 3, 1]), sg.Size([2, 1, 3, 1]))
        """
        if dim is None:
            return SQUEEZE.binary(self, None)
        dims = _dim_args(dim)
        ones = tuple(d for d in (dims if isinstance(dims, tuple) else (dims,))
                     if self.data.shape[d] == 1)
        op = SQUEEZE_DIMS if isinstance(dims, tuple) else SQUEEZE_DIM
        return op.binary(self, ones)

    def expand(self, *sizes: Any) -> Tensor:
        """A read-only view repeating size-1 dimensions (``-1`` keeps a size).

        The gradient of the expanded tensor sums back over the repeats:

        >>> x = sg.tensor([[1.0], [2.0]], requires_grad=True)
        >>> x.expand(2, 3)
        tensor([[1., 1., 1.],
                [2., 2., 2.]], grad_fn=<ExpandBackward0>)
        >>> x.expand(-1, 3).sum().backward()
        >>> x.grad
        tensor([[3.],
                [3.]])
        """
        return EXPAND.binary(self, _expanded_shape(self.data.shape, _shape_args(sizes)))

    def expand_as(self, other: Tensor) -> Tensor:
        """``expand`` to ``other``'s shape.

        >>> sg.tensor([1.0, 2.0]).expand_as(sg.zeros(2, 2))
        tensor([[1., 2.],
                [1., 2.]])
        """
        return self.expand(other.shape)

    def narrow(self, dim: int, start: int, length: int) -> Tensor:
        """A view of ``length`` elements from ``start`` along ``dim``.

        >>> sg.arange(6).reshape(2, 3).narrow(1, 1, 2)
        tensor([[1, 2],
                [4, 5]])
        """
        dim %= self.data.ndim
        index = (slice(None),) * dim + (slice(start, start + length),)
        return INDEXING["SliceBackward0"].binary(self, index)

    def repeat(self, *sizes: Any) -> Tensor:
        """The tensor tiled ``sizes`` times along each dimension (a copy).

        >>> sg.tensor([1.0, 2.0]).repeat(2, 2)
        tensor([[1., 2., 1., 2.],
                [1., 2., 1., 2.]])
        """
        return TILE.binary(self, _shape_args(sizes))

    def split(self, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
        """Views of consecutive pieces along ``dim``: of ``split_size`` each (the last one
        smaller) or of the sizes listed.

        >>> sg.arange(5).split(2)
        (tensor([0, 1]), tensor([2, 3]), tensor([4]))
        >>> sg.arange(5).split([1, 4])
        (tensor([0]), tensor([1, 2, 3, 4]))
        """
        n = self.data.shape[dim]
        if isinstance(split_size_or_sections, int):
            size = split_size_or_sections
            sizes = [size] * (n // size) + ([n % size] if n % size or n == 0 else [])
            name = "Split"
        else:
            sizes = list(split_size_or_sections)
            if sum(sizes) != n:
                raise RuntimeError(
                    f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's "
                    f"size at dimension {dim}), but got split_sizes={sizes}")
            name = "SplitWithSizes"
        ends = np.cumsum(sizes)
        pieces = dispatch.call_named(f"{name}Backward0", np.split, (self, list(ends[:-1])),
                                     {"axis": dim}, views_by_caller=True)
        lead = (slice(None),) * (dim % self.data.ndim)
        steps = [(operator.getitem, _getitem, (lead + (slice(end - size, end),),),
                  views.NO_KEYWORDS) for size, end in zip(sizes, ends, strict=True)]
        views.make_output_views(pieces, self, steps, name)
        return tuple(pieces)

    def chunk(self, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
        """``chunks`` pieces along ``dim`` (views), the last one possibly smaller.

        >>> sg.arange(5).chunk(2)
        (tensor([0, 1, 2]), tensor([3, 4]))
        """
        n = self.data.shape[dim]
        return self.split(max(1, -(-n // chunks)), dim)

    def unbind(self, dim: int = 0) -> tuple[Tensor, ...]:
        """The slices along ``dim``, as views, that dimension removed.

        >>> sg.tensor([[1.0, 2.0], [3.0, 4.0]]).unbind(1)
        (tensor([1., 3.]), tensor([2., 4.]))
        """
        pieces = dispatch.call_named("UnbindBackward0", np.unstack, (self,), {"axis": dim},
                                     views_by_caller=True)
        lead = (slice(None),) * (dim % self.data.ndim)
        steps = [(operator.getitem, _getitem, (lead + (i,),), views.NO_KEYWORDS)
                 for i in range(len(pieces))]
        views.make_output_views(list(pieces), self, steps, "Unbind")
        return tuple(pieces)

    # ------------------------------------------------- arithmetic methods (``alpha=``)

    def add(self, other: Any, alpha: float = 1) -> Tensor:
        """``self + alpha * other``.

        >>> sg.tensor([1.0, 2.0]).add(sg.tensor([1.0, 1.0]), alpha=10)
        tensor([11., 12.])
        """
        return self + (other if alpha == 1 else other * alpha)

    def sub(self, other: Any, alpha: float = 1) -> Tensor:
        """``self - alpha * other`` (``subtract`` is the same).

        >>> sg.tensor([1.0, 2.0]).sub(1.0)
        tensor([0., 1.])
        """
        return self - (other if alpha == 1 else other * alpha)

    def mul(self, other: Any) -> Tensor:
        """``self * other`` (``multiply`` is the same).

        ``d/dx (x y) = y``:

        >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> x.mul(sg.tensor([3.0, 4.0])).sum().backward()
        >>> x.grad
        tensor([3., 4.])
        """
        return self * other

    def div(self, other: Any) -> Tensor:
        """``self / other`` (``divide`` is the same).

        >>> sg.tensor([1.0, 2.0]).div(4)
        tensor([0.2500, 0.5000])
        """
        return self / other

    multiply, divide, subtract = mul, div, sub

    def float(self) -> Tensor:
        """A float32 copy (this tensor itself if it is float32).

        >>> sg.tensor([1, 2]).float()
        tensor([1., 2.])
        """
        return self.to(np.float32)

    def double(self) -> Tensor:
        """A float64 copy (this tensor itself if it is float64).

        >>> sg.tensor([1, 2]).double().dtype
        dtype('float64')
        """
        return self.to(np.float64)

    def long(self) -> Tensor:
        """An int64 copy (decimals dropped).

        >>> sg.tensor([1.5, -2.5]).long()
        tensor([ 1, -2])
        """
        return self.to(np.int64)

    def to(self, dtype: Any) -> Tensor:
        """A copy in ``dtype`` (this tensor itself if it has that dtype already).

        >>> sg.tensor([1, 2]).to(sg.float64).dtype
        dtype('float64')
        """
        if self.data.dtype == np.dtype(dtype):
            return self
        return ASTYPE.binary(self, np.dtype(dtype))


def _rebuilt(data: np.ndarray, requires_grad: bool) -> Tensor:
    return Tensor(data, requires_grad=requires_grad)


def _check_clamp_bounds(low: Any, high: Any) -> None:
    if low is None and high is None:
        raise RuntimeError("sg.clamp: At least one of 'min' or 'max' must not be None")


def _expanded_shape(shape: tuple[int, ...], sizes: tuple[int, ...]) -> tuple[int, ...]:
    """``expand``'s target shape, with PyTorch's errors."""
    lead = len(sizes) - len(shape)
    if lead < 0:
        raise RuntimeError(f"expand(sg.FloatTensor{{{list(shape)}}}, size={list(sizes)}): the "
                           "number of sizes provided must be greater or equal to the number of "
                           "dimensions in the tensor")
    out = []
    for i, size in enumerate(sizes):
        if i < lead:
            if size == -1:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a "
                                   f"leading, non-existing dimension {i}")
            out.append(size)
            continue
        existing = shape[i - lead]
        if size == -1:
            size = existing
        elif existing != 1 and size != existing:
            raise RuntimeError(
                f"The expanded size of the tensor ({size}) must match the existing size "
                f"({existing}) at non-singleton dimension {i}.  Target sizes: {list(sizes)}.  "
                f"Tensor sizes: {list(shape)}")
        out.append(size)
    return tuple(out)


def _is_basic(index: Any) -> bool:
    """Whether ``index`` selects a view (integers, slices, ``None``, ``...``), not a copy."""
    parts = index if type(index) is tuple else (index,)
    for part in parts:
        if not (part is None or part is Ellipsis or type(part) is slice
                or isinstance(part, (int, np.integer)) and not isinstance(part, (bool, np.bool_))):
            return False
    return True


def _getitem(a: np.ndarray, index: Any) -> np.ndarray:
    """``a[index]``; where every index is an integer, the 0-d view of that element rather
    than NumPy's number (a copy), so that it can be written into as PyTorch's can."""
    if type(index) is int:  # (the most frequent: a row, or an element of a vector)
        return a[index, ...]
    out = a[index]
    if type(out) is np.ndarray:
        return out
    return a[(*index, ...) if type(index) is tuple else (index, ...)]


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
from ..rules import support  # noqa: E402
from . import dispatch  # noqa: E402

# The primitives behind the operators and methods, each prepared once (``dispatch.Op``).
_Op = dispatch.Op
ADD, SUB, MUL, DIV = _Op(np.add), _Op(np.subtract), _Op(np.multiply), _Op(np.divide)
RSUB = _Op(np.subtract, "RsubBackward1")
POW, POW_TENSOR = _Op(np.power, "PowBackward0"), _Op(np.power, "PowBackward1")
RPOW = _Op(np.power, "PowBackward2")
MATMUL, NEG = _Op(np.matmul), _Op(np.negative)
CLONE = _Op(np.copy, "CloneBackward0")
# np.sum(a, axis, dtype, out, keepdims) on an ndarray is np.add.reduce with the same arguments,
# behind a Python wrapper that costs more than the sum of ten numbers. PyTorch names a
# reduction by whether it has a ``dim`` (``SumBackward0``/``1``): one Op for each.
SUM = _Op(np.sum, "SumBackward0", runs=np.add.reduce)
SUM_DIM = _Op(np.sum, "SumBackward1", runs=np.add.reduce)
# np.mean, np.reshape, np.swapaxes, np.transpose and np.squeeze call the ndarray method of
# the same name, with the same arguments, through a Python wrapper.
MEAN = _Op(np.mean, "MeanBackward0", runs=np.ndarray.mean)
MEAN_DIM = _Op(np.mean, "MeanBackward1", runs=np.ndarray.mean)
VIEW = _Op(np.reshape, "ViewBackward0", runs=np.ndarray.reshape, view=True)
TRANSPOSE = _Op(np.swapaxes, "TransposeBackward0", runs=np.ndarray.swapaxes, view=True)
T_2D = _Op(np.transpose, "TBackward0", runs=np.ndarray.transpose, view=True)
T_LOW = _Op(np.transpose, "TBackward0", runs=np.ndarray.transpose, view=True)
PERMUTE = _Op(np.transpose, "PermuteBackward0", runs=np.ndarray.transpose, view=True)
SQUEEZE = _Op(np.squeeze, "SqueezeBackward0", runs=np.ndarray.squeeze, view=True)
SQUEEZE_DIM = _Op(np.squeeze, "SqueezeBackward1", runs=np.ndarray.squeeze, view=True)
SQUEEZE_DIMS = _Op(np.squeeze, "SqueezeBackward2", runs=np.ndarray.squeeze, view=True)
RESHAPE_COPY = _Op(np.reshape, "UnsafeViewBackward0", runs=np.ndarray.reshape)
EXPAND = _Op(np.broadcast_to, "ExpandBackward0", runs=views.expanded, view=True)
TILE = _Op(np.tile, "RepeatBackward0")
UNSQUEEZE = _Op(np.expand_dims, "UnsqueezeBackward0", runs=_unsqueezed, view=True)
# Indexing, by the node name PyTorch gives it (``_index_node_name``).
INDEXING = {name: _Op(operator.getitem, name, runs=_getitem, view=name != "IndexBackward0")
            for name in ("SelectBackward0", "SliceBackward0", "IndexBackward0")}
CLAMP = _Op(np.clip, "ClampBackward1")
ASTYPE = _Op(support.astype, "ToCopyBackward0", exact_dtype=True)
# Writes, for the in-place operations and assignments (``rules/writes.py``)
INDEX_PUT = _Op(support.index_put, "IndexPutBackward0")
ZERO = _Op(support.filled_with, "ZeroBackward0")
FILL = _Op(support.filled_with, "FillBackward2")
COPY = _Op(support.filled_with, "CopyBackwards")
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
Tensor.clone = CLONE.unary
Tensor.__abs__ = Tensor.abs = ABS.unary
Tensor.exp, Tensor.log, Tensor.sqrt, Tensor.tanh = EXP.unary, LOG.unary, SQRT.unary, TANH.unary
Tensor.sin, Tensor.cos = SIN.unary, COS.unary
Tensor.sigmoid, Tensor.relu = SIGMOID.unary, RELU.unary


def _in_place_method(op: dispatch.Op, name: str, data: str, printed: str
                     ) -> Callable[[Tensor], Tensor]:
    def method(self: Tensor) -> Tensor:
        return in_place.apply(self, op)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"``{name[:-1]}`` in place: the tensor itself, changed.\n\n"
                      f">>> x = sg.tensor({data})\n>>> x.{name}()\n{printed}\n"
                      f">>> x\n{printed}\n")
    return method


# each in-place method, with the data of its example and what that prints
for _op, _name, _data, _printed in (
        (EXP, "exp_", "[0.0, 1.0]", "tensor([1.0000, 2.7183])"),
        (LOG, "log_", "[1.0, 100.0]", "tensor([0.0000, 4.6052])"),
        (SQRT, "sqrt_", "[1.0, 4.0]", "tensor([1., 2.])"),
        (TANH, "tanh_", "[0.0, 1.0]", "tensor([0.0000, 0.7616])"),
        (SIN, "sin_", "[0.0, np.pi / 2]", "tensor([0., 1.])"),
        (COS, "cos_", "[0.0, np.pi]", "tensor([ 1., -1.])"),
        (ABS, "abs_", "[-1.0, 2.0]", "tensor([1., 2.])"),
        (NEG, "neg_", "[-1.0, 2.0]", "tensor([ 1., -2.])"),
        (SIGMOID, "sigmoid_", "[0.0, np.log(3.0)]", "tensor([0.5000, 0.7500])"),
        (RELU, "relu_", "[-1.0, 2.0]", "tensor([0., 2.])")):
    setattr(Tensor, _name, _in_place_method(_op, _name, _data, _printed))

Tensor.matmul.__doc__ = """The matrix product ``self @ other`` (NumPy's ``matmul`` rules).

``d/dx (x @ w) = w`` for a vector ``x``:

>>> w = sg.tensor([[1.0, 0.0], [3.0, 4.0]])
>>> sg.tensor([1.0, 2.0]).matmul(w)
tensor([7., 8.])
>>> x = sg.tensor([1.0, 2.0], requires_grad=True)
>>> x.matmul(w).sum().backward()
>>> x.grad
tensor([1., 7.])
"""
Tensor.clone.__doc__ = """A copy of the data, recorded: gradients flow back to the original.

>>> x = sg.tensor([1.0, 2.0], requires_grad=True)
>>> y = x.clone()
>>> y.data is x.data
False
>>> (3 * y).sum().backward()
>>> x.grad
tensor([3., 3.])
"""
