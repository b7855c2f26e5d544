"""``sg.autograd``: gradients of tensors without touching ``.grad`` (``grad``), and
``backward`` for several outputs at once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .runtime import graph
from .runtime.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .runtime.tensor import Tensor

__all__ = ["backward", "enable_grad", "grad", "is_grad_enabled", "no_grad",
           "set_grad_enabled"]


def _as_list(tensors: Tensor | Sequence[Tensor]) -> list[Tensor]:
    return [tensors] if isinstance(tensors, Tensor) else list(tensors)


def _aligned(grads: Any, n: int) -> list:
    if grads is None:
        return [None] * n
    grads = _as_list(grads)
    if len(grads) != n:
        raise RuntimeError(f"grad requires one gradient per output: got {len(grads)} for {n}")
    return grads


def grad(outputs: Tensor | Sequence[Tensor], inputs: Tensor | Sequence[Tensor],
         grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None,
         materialize_grads: bool = False) -> tuple[Tensor | None, ...]:
    """The gradients of ``outputs`` (weighted by ``grad_outputs``) with respect to
    ``inputs``, returned rather than accumulated into ``.grad``; with ``create_graph``, the
    gradients have a history of their own (gradients of gradients). ``materialize_grads``
    gives zeros, not ``None``, for an input the outputs do not depend on.

    >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
    >>> (g,) = sg.autograd.grad((x ** 3).sum(), x, create_graph=True)
    >>> g.detach(), g.requires_grad
    (tensor([ 3., 12.]), True)
    >>> sg.autograd.grad(g.sum(), x)
    (tensor([ 6., 12.]),)
    """
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    allow_unused = bool(allow_unused) or materialize_grads
    outputs, inputs = _as_list(outputs), _as_list(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    for tensor in inputs:
        if not tensor.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    roots = graph.root_gradients(outputs, _aligned(grad_outputs, len(outputs)), create_graph)
    retain = create_graph if retain_graph is None else bool(retain_graph)
    captured = graph.run_backward(outputs, roots, retain, inputs, create_graph)
    for i, found in enumerate(captured):
        if found is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have "
                               "been used in the graph. Set allow_unused=True if this is the "
                               "desired behavior.")
    return tuple(_returned(g, tensor, materialize_grads, create_graph)
                 for g, tensor in zip(captured, inputs, strict=True))


def _returned(g: Any, tensor: Tensor, materialize: bool, create_graph: bool) -> Tensor | None:
    """A gradient as ``grad`` returns it: zeros for an unused input if ``materialize``
    (zeros that require grad under ``create_graph``, as PyTorch's do)."""
    if g is None:
        if not materialize:
            return None
        return Tensor(np.zeros_like(tensor.data), requires_grad=create_graph)
    return g if isinstance(g, Tensor) else Tensor(np.array(g, copy=True))


def backward(tensors: Tensor | Sequence[Tensor], grad_tensors: Any = None,
             retain_graph: bool | None = None, create_graph: bool = False,
             inputs: Tensor | Sequence[Tensor] | None = None) -> None:
    """``backward`` from several outputs in one pass (their gradients add up), into the
    leaves' ``.grad`` or, with ``inputs``, into those tensors' only.

    >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
    >>> sg.autograd.backward([x.sum(), (x * x).sum()])
    >>> x.grad
    tensor([3., 5.])
    """
    tensors = _as_list(tensors)
    graph.backward(tensors, _aligned(grad_tensors, len(tensors)), retain_graph, create_graph,
                   None if inputs is None else _as_list(inputs))
