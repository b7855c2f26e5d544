"""Module-level functions mirroring ``torch.*`` (``sg.exp(t)``, ``sg.sum(t, dim=1)``...):
each is the tensor method of the same name, so there is one implementation. Those of
``operations.py`` (``sg.prod``, ``sg.sort``...) are the tensor methods themselves; so are
``all``, ``any``, ``argmax``, ``argmin``, ``numel``, ``t`` and ``clip`` below."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dispatch, tensor
from .tensor import Tensor, to_array


def _as_tensor(value: Any) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(to_array(value))


def matmul(input: Any, other: Any) -> Tensor:
    """The matrix product ``input @ other`` (``MmBackward0``).

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.matmul(t, t)
    tensor([[ -5., -10.],
            [ 15.,  10.]])
    """
    return _as_tensor(input).matmul(other)


# The tensor methods themselves: each takes any array-like as ``input``.
exp = tensor.EXP.unary
log = tensor.LOG.unary
sqrt = tensor.SQRT.unary
tanh = tensor.TANH.unary
sin = tensor.SIN.unary
cos = tensor.COS.unary
abs = tensor.ABS.unary  # noqa: A001  (torch.abs)
sigmoid = tensor.SIGMOID.unary
relu = tensor.RELU.unary
_EXAMPLES = {
    exp: ("``e ** input``, elementwise.", "sg.exp(sg.tensor([0.0, 1.0]))",
          "tensor([1.0000, 2.7183])"),
    log: ("The natural logarithm, elementwise.", "sg.log(sg.tensor([1.0, 4.0]))",
          "tensor([0.0000, 1.3863])"),
    sqrt: ("The square root, elementwise.", "sg.sqrt(sg.tensor([4.0, 9.0]))",
           "tensor([2., 3.])"),
    tanh: ("The hyperbolic tangent, elementwise.", "sg.tanh(sg.tensor([0.0, 1.0]))",
           "tensor([0.0000, 0.7616])"),
    sin: ("The sine, elementwise.", "sg.sin(sg.tensor([0.0]))", "tensor([0.])"),
    cos: ("The cosine, elementwise.", "sg.cos(sg.tensor([0.0]))", "tensor([1.])"),
    abs: ("The absolute value, elementwise (derivative 0 at 0, as in PyTorch).",
          "sg.abs(sg.tensor([-1.0, 2.0]))", "tensor([1., 2.])"),
    sigmoid: ("``1 / (1 + exp(-input))``, elementwise.", "sg.sigmoid(sg.tensor([0.0]))",
              "tensor([0.5000])"),
    relu: ("``max(input, 0)``, elementwise.", "sg.relu(sg.tensor([-1.0, 2.0]))",
           "tensor([0., 2.])"),
}
for _function, (_summary, _call, _printed) in _EXAMPLES.items():
    # the tensor method of the same name is the same function: one docstring for both
    _function.__doc__ = f"{_summary}\n\n>>> {_call}\n{_printed}\n"


def pow(input: Any, exponent: Any) -> Tensor:  # noqa: A001  (torch.pow)
    """``input ** exponent``, elementwise.

    >>> sg.pow(sg.tensor([2.0, 3.0]), 2)
    tensor([4., 9.])
    """
    return _as_tensor(input).pow(exponent)


def sum(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """The sum of all elements, or over ``dim``.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.sum(t), sg.sum(t, dim=0)
    (tensor(6.), tensor([4., 2.]))
    """
    return _as_tensor(input).sum(dim, keepdim)


def mean(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    """The mean of all elements, or over ``dim``.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.mean(t, dim=1, keepdim=True)
    tensor([[-0.5000],
            [ 3.5000]])
    """
    return _as_tensor(input).mean(dim, keepdim)


def max(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    """The largest element; over ``dim``, the values and their indices.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.max(t)
    tensor(4.)
    >>> sg.max(t, dim=1).values
    tensor([1., 4.])
    """
    return _as_tensor(input).max(dim, keepdim)


def min(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    """The smallest element; over ``dim``, the values and their indices.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.min(t, dim=0).indices
    tensor([0, 0])
    """
    return _as_tensor(input).min(dim, keepdim)


def clamp(input: Any, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    """``input`` limited to ``[min, max]`` (either may be ``None``).

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.clamp(t, min=0.0, max=3.0)
    tensor([[1., 0.],
            [3., 3.]])
    """
    return _as_tensor(input).clamp(min, max)


def reshape(input: Any, shape: Any) -> Tensor:
    """The same elements in another shape.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.reshape(t, (4,))
    tensor([ 1., -2.,  3.,  4.])
    """
    return _as_tensor(input).reshape(shape)


def transpose(input: Any, dim0: int, dim1: int) -> Tensor:
    """``input`` with dimensions ``dim0`` and ``dim1`` swapped.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.transpose(t, 0, 1)
    tensor([[ 1.,  3.],
            [-2.,  4.]])
    """
    return _as_tensor(input).transpose(dim0, dim1)


def cat(tensors: Any, dim: int = 0) -> Tensor:
    """``torch.cat``: join tensors along an existing dimension (``CatBackward0``).

    >>> sg.cat([sg.ones(2, 3), sg.zeros(1, 3)], dim=0).shape
    sg.Size([3, 3])
    """
    return dispatch.call(np.concatenate, [_as_tensor(t) for t in tensors], axis=dim)


def stack(tensors: Any, dim: int = 0) -> Tensor:
    """``torch.stack``: join tensors along a new dimension (``StackBackward0``).

    >>> sg.stack([sg.ones(3), sg.zeros(3)], dim=1).shape
    sg.Size([3, 2])
    """
    return dispatch.call(np.stack, [_as_tensor(t) for t in tensors], axis=dim)


def vstack(tensors: Any) -> Tensor:
    """The tensors (vectors as rows) joined along the first dimension (``CatBackward0``).

    >>> sg.vstack([sg.tensor([1.0, 2.0]), sg.tensor([3.0, 4.0])])
    tensor([[1., 2.],
            [3., 4.]])
    """
    return dispatch.call(np.vstack, [_as_tensor(t) for t in tensors])


def hstack(tensors: Any) -> Tensor:
    """The tensors joined along the second dimension (the first, for vectors).

    >>> sg.hstack([sg.tensor([1.0, 2.0]), sg.tensor([3.0])])
    tensor([1., 2., 3.])
    """
    return dispatch.call(np.hstack, [_as_tensor(t) for t in tensors])


def meshgrid(*tensors: Any, indexing: str = "ij") -> tuple[Tensor, ...]:
    """Each vector repeated along the other vectors' dimensions (``indexing="xy"``: the
    first two dimensions swapped, as in NumPy's default); each grid is a view.

    >>> rows, cols = sg.meshgrid(sg.tensor([1.0, 2.0]), sg.tensor([3.0, 4.0, 5.0]))
    >>> rows.shape, cols[0]
    (sg.Size([2, 3]), tensor([3., 4., 5.]))
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    vectors = [_as_tensor(t).reshape(-1) for t in tensors]
    shape = tuple(v.shape[0] for v in vectors)
    grids = [v.reshape([-1 if i == j else 1 for j in range(len(shape))]).expand(*shape)
             for i, v in enumerate(vectors)]
    if indexing == "xy" and len(grids) > 1:
        return tuple(g.transpose(0, 1) for g in grids)
    return tuple(grids)


def clone(input: Any) -> Tensor:
    """A copy of ``input`` that stays in the graph (``CloneBackward0``).

    >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
    >>> sg.clone(x)
    tensor([1., 2.], grad_fn=<CloneBackward0>)
    """
    return _as_tensor(input).clone()


def flatten(input: Any, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """``input`` with dimensions ``start_dim`` to ``end_dim`` merged into one.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.flatten(t)
    tensor([ 1., -2.,  3.,  4.])
    """
    return _as_tensor(input).flatten(start_dim, end_dim)


def squeeze(input: Any, dim: Any = None) -> Tensor:
    """``input`` without its dimensions of size 1 (or only ``dim``).

    >>> sg.squeeze(sg.zeros(1, 2)).shape
    sg.Size([2])
    """
    return _as_tensor(input).squeeze(dim)


def unsqueeze(input: Any, dim: int) -> Tensor:
    """``input`` with a dimension of size 1 inserted at ``dim``.

    >>> sg.unsqueeze(sg.zeros(2), 0).shape
    sg.Size([1, 2])
    """
    return _as_tensor(input).unsqueeze(dim)


def permute(input: Any, dims: Any) -> Tensor:
    """``input``'s dimensions in the order ``dims``.

    >>> sg.permute(sg.zeros(2, 3, 4), (2, 0, 1)).shape
    sg.Size([4, 2, 3])
    """
    return _as_tensor(input).permute(dims)


def narrow(input: Any, dim: int, start: int, length: int) -> Tensor:
    """``length`` elements of ``input`` along ``dim`` from ``start``: a view.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.narrow(t, 1, 1, 1)
    tensor([[-2.],
            [ 4.]])
    """
    return _as_tensor(input).narrow(dim, start, length)


def chunk(input: Any, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``input`` cut into ``chunks`` pieces along ``dim`` (views).

    >>> sg.chunk(sg.arange(4.0), 2)
    (tensor([0., 1.]), tensor([2., 3.]))
    """
    return _as_tensor(input).chunk(chunks, dim)


def split(tensor: Any, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """``input`` cut into pieces of ``split_size_or_sections`` along ``dim``.

    >>> sg.split(sg.arange(5.0), 2)
    (tensor([0., 1.]), tensor([2., 3.]), tensor([4.]))
    """
    return _as_tensor(tensor).split(split_size_or_sections, dim)


def unbind(input: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices of ``input`` along ``dim``, without that dimension.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.unbind(t)
    (tensor([ 1., -2.]), tensor([3., 4.]))
    """
    return _as_tensor(input).unbind(dim)


def add(input: Any, other: Any, alpha: float = 1) -> Tensor:
    """``input + alpha * other``.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.add(t, 1.0, alpha=2.0)
    tensor([[3., 0.],
            [5., 6.]])
    """
    return _as_tensor(input).add(other, alpha=alpha)


def sub(input: Any, other: Any, alpha: float = 1) -> Tensor:
    """``input - alpha * other``.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.sub(t, t, alpha=0.5)
    tensor([[ 0.5000, -1.0000],
            [ 1.5000,  2.0000]])
    """
    return _as_tensor(input).sub(other, alpha=alpha)


def mul(input: Any, other: Any) -> Tensor:
    """``input * other``, elementwise.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.mul(t, 2.0)
    tensor([[ 2., -4.],
            [ 6.,  8.]])
    """
    return _as_tensor(input).mul(other)


def div(input: Any, other: Any) -> Tensor:
    """``input / other``, elementwise.

    >>> t = sg.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> sg.div(t, 2.0)
    tensor([[ 0.5000, -1.0000],
            [ 1.5000,  2.0000]])
    """
    return _as_tensor(input).div(other)


# The tensor methods themselves, as functions of the tensor.
all = Tensor.all  # noqa: A001  (torch.all)
any = Tensor.any  # noqa: A001  (torch.any)
argmax, argmin, numel, t, clip = Tensor.argmax, Tensor.argmin, Tensor.numel, Tensor.t, Tensor.clip
