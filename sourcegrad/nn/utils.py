"""``sg.nn.utils``: gradient clipping, as ``torch.nn.utils`` does it (in place, on ``.grad``)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..runtime.tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_value_"]


def _gradients(parameters: Tensor | Iterable[Tensor]) -> list[Tensor]:
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def _vector_norm(values: np.ndarray, norm_type: float) -> np.ndarray:
    magnitudes = np.abs(values.ravel())
    if norm_type == np.inf:
        return magnitudes.max(initial=0).astype(values.dtype)
    if norm_type == -np.inf:
        return magnitudes.min().astype(values.dtype)
    if norm_type == 0:
        return np.asarray(np.count_nonzero(magnitudes), dtype=values.dtype)
    return (np.sum(magnitudes ** norm_type) ** (1.0 / norm_type)).astype(values.dtype)


def clip_grad_norm_(parameters: Tensor | Iterable[Tensor], max_norm: float,
                    norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach: bool | None = None) -> Tensor:
    """Scale the gradients together so that their joint ``norm_type`` norm is at most
    ``max_norm``; return that norm before clipping (a tensor, as PyTorch does).

    >>> p = sg.tensor([3.0, 4.0], requires_grad=True)
    >>> (p * p).sum().backward()
    >>> p.grad
    tensor([6., 8.])
    >>> sg.nn.utils.clip_grad_norm_([p], max_norm=5.0)
    tensor(10.)
    >>> p.grad
    tensor([3.0000, 4.0000])
    """
    grads = _gradients(parameters)
    norm_type = float(norm_type)
    if not grads:
        return Tensor(np.asarray(0.0, dtype=np.float32))
    dtype = np.result_type(*(g.data for g in grads))
    norms = np.stack([_vector_norm(g.data, norm_type) for g in grads]).astype(dtype)
    total = _vector_norm(norms, norm_type)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the "
            "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
    coefficient = np.minimum(np.asarray(max_norm, dtype=dtype) / (total + dtype.type(1e-6)),
                             dtype.type(1.0))
    for g in grads:
        g.data *= coefficient.astype(g.data.dtype)
        g._mark_modified()  # (``g.mul_(coefficient)``, as in PyTorch)
    return Tensor(np.asarray(total))


def clip_grad_value_(parameters: Tensor | Iterable[Tensor], clip_value: float,
                     foreach: bool | None = None) -> None:
    """Clip every gradient element into ``[-clip_value, clip_value]``.

    >>> p = sg.tensor([0.0, 0.0], requires_grad=True)
    >>> p.grad = sg.tensor([3.0, -4.0])
    >>> sg.nn.utils.clip_grad_value_([p], 1.0)
    >>> p.grad
    tensor([ 1., -1.])
    """
    for g in _gradients(parameters):
        np.clip(g.data, -clip_value, clip_value, out=g.data)
        g._mark_modified()  # (``g.clamp_(...)``, as in PyTorch)
