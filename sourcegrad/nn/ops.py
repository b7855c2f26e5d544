"""Neural-network primitives on plain NumPy arrays, and the few functions PyTorch has that
NumPy lacks (``rsqrt``, ``logsumexp``, ``lerp``, ``erf``, and ``floor``, ``ceil``, ``round``,
``trunc`` as PyTorch records them: nodes with a zero gradient).

Each is an ordinary NumPy function (numerically stable), so the source transformer can
differentiate code that calls it and the runtime can record it; its derivative rule is in
``sourcegrad/rules/nn.py``. ``sg.nn.functional`` and the tensor methods apply them to
tensors.
"""

from __future__ import annotations

import math

import numpy as np

REDUCTIONS = ("none", "mean", "sum")


def sigmoid(x):
    """``1 / (1 + exp(-x))`` without overflow for large negative ``x``.

    Plain NumPy, so sourcegrad differentiates code that calls it
    (``sigmoid' = sigmoid (1 - sigmoid)``, 1/4 at 0):

    >>> sg.nn.ops.sigmoid(np.array([0.0, np.log(3.0)]))
    array([0.5 , 0.75])
    >>> def f(x):
    ...     return sg.nn.ops.sigmoid(x)
    >>> sg.grad(f)(0.0)
    0.25
    """
    return np.exp(-np.logaddexp(0, -x))


def relu(x):
    """``max(x, 0)``, elementwise.

    >>> sg.nn.ops.relu(np.array([-1.0, 2.0]))
    array([0., 2.])
    """
    return np.maximum(x, 0)


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``: PyTorch's affine layer, weight of shape (out, in).

    >>> sg.nn.ops.linear(np.array([[3.0, 1.0]]), np.array([[1.0, -1.0]]), np.array([0.5]))
    array([[2.5]])
    """
    out = input @ weight.T
    return out if bias is None else out + bias


def softmax(x, axis=-1):
    """``exp(x) / sum(exp(x))`` along ``axis``, computed without overflow.

    >>> sg.nn.ops.softmax(np.array([0.0, np.log(3.0)]))
    array([0.25, 0.75])
    """
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    """``log(softmax(x))`` along ``axis``, computed without overflow.

    >>> np.exp(sg.nn.ops.log_softmax(np.array([0.0, np.log(3.0)])))
    array([0.25, 0.75])
    """
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def logsumexp(x, axis=None, keepdims=False):
    """``log(sum(exp(x)))`` over ``axis``, computed without overflow (the maximum is taken
    out first; an all ``-inf`` slice gives ``-inf``).

    >>> float(sg.nn.ops.logsumexp(np.array([1000.0, 1000.0])))
    1000.6931471805599
    """
    peak = np.max(x, axis=axis, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0)
    out = np.log(np.sum(np.exp(x - peak), axis=axis, keepdims=True)) + peak
    return out if keepdims else np.squeeze(out, axis=axis)


def rsqrt(x):
    """``1 / sqrt(x)``, elementwise.

    >>> sg.nn.ops.rsqrt(np.array([4.0, 0.25]))
    array([0.5, 2. ])
    """
    return 1 / np.sqrt(x)


def lerp(start, end, weight):
    """``start + weight * (end - start)``: the linear interpolation from ``start`` to
    ``end``.

    >>> sg.nn.ops.lerp(np.array([0.0, 10.0]), np.array([1.0, 20.0]), 0.25)
    array([ 0.25, 12.5 ])
    """
    return start + weight * (end - start)


def erf(x):
    """The error function, elementwise (``math.erf`` on each element: NumPy has none).

    >>> sg.nn.ops.erf(np.array([0.0, 1.0]))
    array([0.        , 0.84270079])
    """
    values = np.asarray(x)
    out = np.vectorize(math.erf, otypes=[np.float64])(values)
    return out.astype(np.result_type(values.dtype, np.float32)) if values.dtype.kind == "f" \
        else out


def _piecewise_constant(numpy_function, example):
    """NumPy's ``numpy_function`` as a primitive of its own: ``np.floor`` itself is declared
    non-differentiable (a constant to the source transformer), while PyTorch records
    ``x.floor()`` as a node whose gradient is zero; the rule of these copies says so."""

    def step(x):
        return numpy_function(x)

    step.__name__ = step.__qualname__ = numpy_function.__name__
    step.__doc__ = (f"``np.{numpy_function.__name__}``, as a primitive whose derivative is 0 "
                    f"(PyTorch's ``{numpy_function.__name__}``).\n\n"
                    f">>> sg.nn.ops.{numpy_function.__name__}(np.array([-1.5, 0.5, 2.5]))\n"
                    f"{example}\n")
    return step


floor = _piecewise_constant(np.floor, "array([-2.,  0.,  2.])")
ceil = _piecewise_constant(np.ceil, "array([-1.,  1.,  3.])")
round = _piecewise_constant(np.round, "array([-2.,  0.,  2.])")  # noqa: A001  (half to even)
trunc = _piecewise_constant(np.trunc, "array([-1.,  0.,  2.])")


def binary_cross_entropy_with_logits(input, target, reduction="mean"):
    """Mean (or sum, or elementwise) of ``-(y log σ(x) + (1 - y) log(1 - σ(x)))``.

    >>> float(sg.nn.ops.binary_cross_entropy_with_logits(np.array([0.0]), np.array([1.0])))
    0.6931471805599453
    """
    _check_same_shape(input, target)
    losses = np.maximum(input, 0) - input * target + np.logaddexp(0, -np.abs(input))
    return _reduce(losses, reduction)


def binary_cross_entropy(input, target, reduction="mean"):
    """On probabilities; each log is clamped at -100, as PyTorch does, so 0 and 1 are
    finite.

    ``-log(0.5) = log 2``; a probability of 0 for a positive target costs 100, not infinity:

    >>> sg.nn.ops.binary_cross_entropy(np.array([0.5, 0.0]), np.array([1.0, 1.0]),
    ...                                reduction="none")
    array([  0.69314718, 100.        ])
    """
    _check_same_shape(input, target)
    if isinstance(input, np.ndarray) and not np.all((input >= 0) & (input <= 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    with np.errstate(divide="ignore"):
        log_p = np.maximum(np.log(input), -100)
        log_q = np.maximum(np.log(1 - input), -100)
    return _reduce(-(target * log_p + (1 - target) * log_q), reduction)


def mse_loss(input, target, reduction="mean"):
    """The mean (or sum, or elementwise) of the squared differences.

    >>> float(sg.nn.ops.mse_loss(np.array([1.0, 2.0]), np.array([0.0, 0.0])))
    2.5
    """
    return _reduce((input - target) ** 2, reduction)


def cross_entropy(input, target, reduction="mean"):
    """Integer class ``target`` against logits ``input`` of shape ``(C,)`` or ``(N, C)``.

    Two equal logits: probability 1/2 for the target class, loss ``log 2``:

    >>> float(sg.nn.ops.cross_entropy(np.array([[0.0, 0.0]]), np.array([1])))
    0.6931471805599453
    """
    if np.ndim(input) not in (1, 2):
        raise ValueError("cross_entropy takes logits of shape (C,) or (N, C), not "
                         f"{np.shape(input)}")
    _check_classes(target, np.shape(input))
    log_p = log_softmax(input, axis=-1)
    picked = np.take_along_axis(log_p, np.expand_dims(np.asarray(target), -1), axis=-1)
    return _reduce(-np.squeeze(picked, axis=-1), reduction)


def _check_classes(target, input_shape):
    """PyTorch's checks of class indices for logits of ``input_shape``, above all its
    refusal of an index outside ``[0, C)``: NumPy would read ``-1`` as the last class, a
    silently wrong loss. (-100, PyTorch's ``ignore_index``, would be left out of the loss
    there; it is refused here, with a word on why.)"""
    if not isinstance(target, (np.ndarray, int, np.integer)):
        return
    classes = np.asarray(target)
    if classes.dtype.kind == "f" and classes.shape == input_shape:
        raise NotImplementedError("sourcegrad's cross_entropy takes class indices; class "
                                  "probabilities as target are not supported yet")
    if classes.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if classes.shape != input_shape[:-1]:
        raise ValueError(f"Expected input batch_size ({input_shape[0]}) to match target "
                         f"batch_size ({classes.shape[0] if classes.ndim else 1}).")
    if classes.dtype.kind not in "iu":
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{_TORCH_NAMES.get(classes.dtype.name, classes.dtype.name)}")
    outside = classes[(classes < 0) | (classes >= input_shape[-1])]
    if outside.size:
        bad = int(outside.flat[0])
        note = (" (sourcegrad's cross_entropy has no ignore_index: leave those rows out)"
                if bad == -100 else "")
        raise IndexError(f"Target {bad} is out of bounds.{note}")


_TORCH_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "bool": "Bool"}


def _reduce(losses, reduction):
    if reduction == "mean":
        return np.mean(losses)
    if reduction == "sum":
        return np.sum(losses)
    if reduction == "none":
        return losses
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _check_same_shape(input, target):
    if np.shape(input) != np.shape(target):
        raise ValueError(f"Target size (sg.Size({list(np.shape(target))})) must be the same "
                         f"as input size (sg.Size({list(np.shape(input))}))")
