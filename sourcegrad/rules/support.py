"""Helpers that derivative rules call, and so does the code generated from them.

This module is the whole runtime footprint of generated code: ``sourcegrad emit`` copies
these functions verbatim into the emitted file, so they depend on NumPy and nothing else.
Keep each one small, obvious and cheap when there is nothing to do (the common case of
matching shapes must cost one comparison).
"""

import numpy as np


def unbroadcast(g, x):
    """Sum ``g`` down to the shape of ``x``: the adjoint of NumPy's implicit broadcasting."""
    shape = np.shape(x)
    if np.shape(g) == shape:
        return g
    extra = np.ndim(g) - len(shape)
    if extra > 0:
        g = np.sum(g, axis=tuple(range(extra)))
    stretched = tuple(i for i, n in enumerate(shape) if n == 1 and np.shape(g)[i] != 1)
    if stretched:
        g = np.sum(g, axis=stretched, keepdims=True)
    return g


def broadcast_like(t, ans):
    """Broadcast a tangent ``t`` to the shape of the output ``ans`` (forward-mode twin of
    ``unbroadcast``)."""
    if np.shape(t) == np.shape(ans):
        return t
    return np.broadcast_to(t, np.shape(ans))


def unreduce(g, x, axis=None, keepdims=False):
    """Spread the cotangent of a reduction over ``axis`` back over the shape of ``x``."""
    if axis is not None and not keepdims:
        g = np.expand_dims(g, axis)
    return np.broadcast_to(g, np.shape(x))


def reduced_count(x, ans):
    """How many elements of ``x`` were reduced into each element of ``ans``."""
    return np.size(x) // max(np.size(ans), 1)


def spread_over_ties(g, x, ans, axis=None, keepdims=False):
    """Cotangent of ``max``/``min`` over ``axis``: shared evenly among the elements that tie
    for the extreme, as PyTorch's ``amax``/``amin`` do."""
    ans_full = ans if keepdims or axis is None else np.expand_dims(ans, axis)
    winners = x == ans_full
    count = np.sum(winners, axis=axis, keepdims=True)
    return unreduce(g, x, axis, keepdims) * winners / count


def zeros_like_grad(x):
    """A zero gradient with ``x``'s structure (float, even for integer ``x``)."""
    if isinstance(x, (list, tuple)):
        return type(x)(zeros_like_grad(v) for v in x)
    if isinstance(x, dict):
        return {k: zeros_like_grad(v) for k, v in x.items()}
    if isinstance(x, (float, int)) and not isinstance(x, bool):
        return 0.0
    x = np.asarray(x)
    return np.zeros(x.shape, dtype=x.dtype if x.dtype.kind in "fc" else np.float64)


def as_gradient(g, x):
    """The gradient returned to the user: ``x``'s structure, type and (float) dtype, and never
    a read-only broadcast view."""
    if g is None:
        return zeros_like_grad(x)
    if isinstance(x, (list, tuple)):
        return type(x)(as_gradient(gi, xi) for gi, xi in zip(g, x, strict=True))
    if isinstance(x, dict):
        return {k: as_gradient(g.get(k), v) for k, v in x.items()}
    if np.ndim(g) != 0 and np.shape(g) != np.shape(x):
        raise ValueError(f"gradient of shape {np.shape(g)} for an argument of shape "
                         f"{np.shape(x)}: please report this as a sourcegrad bug")
    if isinstance(x, (float, int)) and not isinstance(x, bool):
        return float(g)
    x = np.asarray(x)
    dtype = x.dtype if x.dtype.kind in "fc" else np.float64
    if np.shape(g) != x.shape:
        g = np.broadcast_to(g, x.shape)
    if not isinstance(g, np.ndarray) or g.dtype != dtype or not g.flags.writeable:
        g = np.array(g, dtype=dtype)
    return g


def matmul_vjp_x1(g, x1, x2):
    """Cotangent of ``x1`` in ``x1 @ x2``, for every combination of vector and stacked
    matrix operands that ``np.matmul`` accepts."""
    if np.ndim(x1) == 2 and np.ndim(x2) == 2:
        return g @ x2.T
    if np.ndim(x2) == 1:
        return unbroadcast(np.multiply.outer(g, x2), x1)
    if np.ndim(x1) == 1:
        return unbroadcast(np.squeeze(np.expand_dims(g, -2) @ np.swapaxes(x2, -1, -2), -2), x1)
    return unbroadcast(g @ np.swapaxes(x2, -1, -2), x1)


def matmul_vjp_x2(g, x1, x2):
    """Cotangent of ``x2`` in ``x1 @ x2`` (see ``matmul_vjp_x1``)."""
    if np.ndim(x1) == 2 and np.ndim(x2) == 2:
        return x1.T @ g
    if np.ndim(x1) == 1:
        return unbroadcast(np.expand_dims(x1, -1) * np.expand_dims(g, -2), x2)
    if np.ndim(x2) == 1:
        return unbroadcast(np.squeeze(np.swapaxes(x1, -1, -2) @ np.expand_dims(g, -1), -1), x2)
    return unbroadcast(np.swapaxes(x1, -1, -2) @ g, x2)


def copy_grad(g):
    """A private copy of a gradient, so that it can be updated in place."""
    if isinstance(g, (list, tuple)):
        return list(g)
    if isinstance(g, dict):
        return dict(g)
    return np.array(g, copy=True)


def add_grads(a, b):
    """``a + b`` for gradients that may be lists, tuples or dicts of arrays."""
    if isinstance(a, dict):
        return {k: add_grads(a[k], b[k]) if k in b else a[k] for k in a}
    if isinstance(a, (list, tuple)):
        return [add_grads(x, y) for x, y in zip(a, b, strict=True)]
    return a + b


def scalar_seed(value):
    """The cotangent 1 of a scalar output; ``sg.grad`` of anything else is an error."""
    if np.size(value) != 1 or isinstance(value, (list, tuple, dict)):
        raise TypeError(
            f"sg.grad needs a function that returns a scalar, but it returned a value of "
            f"shape {np.shape(value)}; use sg.vjp or sg.jacobian for non-scalar outputs"
        )
    return np.ones_like(value, dtype=np.result_type(value, 1.0))
