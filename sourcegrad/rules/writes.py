"""Derivatives of writing into an array, for the runtime's in-place operations on tensors:
``x[index] = values`` (``index_put``), ``x.copy_(src)`` and ``x.fill_(value)``
(``filled_with``), and of ``np.unstack`` (``Tensor.unbind``).

A write replaces elements: the overwritten ones get a zero cotangent (PyTorch returns zeros,
not nothing, for them), the written values get the cotangent of the positions they went to.
"""

import numpy as np

from . import support
from .registry import rule
from .support import broadcast_like, index_put, last_writes, unbroadcast, zeros_like_grad


@rule(support.index_put)
class index_put_rule:
    """A position an advanced index writes twice keeps the last value: only that one gets a
    cotangent (PyTorch's ``index_put_`` gives it to both)."""

    torch_name = "IndexPut"
    nondiff = ("index",)

    def vjp_x(g, ans, x, index, values):
        return index_put(g, index, 0.0)

    def vjp_values(g, ans, x, index, values):
        return unbroadcast(last_writes(g[index], x, index), values)

    def jvp_x(t, ans, x, index, values):
        return index_put(t, index, 0.0)

    def jvp_values(t, ans, x, index, values):
        return index_put(np.zeros_like(ans), index, t)


@rule(support.filled_with)
class filled_with_rule:
    torch_name = "Copy"

    def vjp_x(g, ans, x, value):
        return zeros_like_grad(x)

    def vjp_value(g, ans, x, value):
        return unbroadcast(g, value)

    def jvp_x(t, ans, x, value):
        return zeros_like_grad(ans)

    def jvp_value(t, ans, x, value):
        return broadcast_like(t, ans)


@rule(getattr(np, "unstack", None))
class unstack:
    sequence_output = True
    torch_name = "Unbind"
    linear = True
    nondiff = ("axis",)

    def vjp_x(g, ans, x, axis=0):
        return np.stack(g, axis=axis)
