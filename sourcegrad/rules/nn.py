"""Derivatives of the neural-network primitives of ``sourcegrad.nn.ops``.

The losses take ``reduction`` ('mean', 'sum' or 'none'): a VJP's ``g`` is then a scalar or
has the elementwise losses' shape, and broadcasting covers both; a JVP sums its elementwise
contributions over ``axis=()`` (no axis at all) for 'none' and over everything otherwise.
Softmax-like expressions subtract the maximum before ``exp``, as the forward does.
``axis`` (default -1) goes to ``np.sum`` positionally: the inliner drops a keyword argument
the user left at its default, and ``np.sum``'s own default (None) is not -1.
"""

import math

import numpy as np

from ..nn import ops
from .registry import rule
from .support import (
    broadcast_like,
    broadcast_size,
    matmul_vjp_x1,
    matmul_vjp_x2,
    unbroadcast,
    unreduce,
)


@rule(ops.sigmoid)
class sigmoid:
    torch_name = "Sigmoid"

    def vjp_x(g, ans, x):
        return g * ans * (1 - ans)

    def jvp_x(t, ans, x):
        return t * ans * (1 - ans)


@rule(ops.relu)
class relu:
    torch_name = "Relu"

    def vjp_x(g, ans, x):
        return g * (x > 0)

    def jvp_x(t, ans, x):
        return t * (x > 0)


@rule(ops.linear)
class linear:
    """``input @ weight.T + bias``; PyTorch names the node of a batch ``AddmmBackward0``."""

    torch_name = "Addmm"

    def vjp_input(g, ans, input, weight, bias=None):
        return matmul_vjp_x1(g, input, weight.T)

    def vjp_weight(g, ans, input, weight, bias=None):
        return matmul_vjp_x2(g, input, weight.T).T

    def vjp_bias(g, ans, input, weight, bias=None):
        return unbroadcast(g, bias)

    def jvp_input(t, ans, input, weight, bias=None):
        return t @ weight.T

    def jvp_weight(t, ans, input, weight, bias=None):
        return input @ t.T

    def jvp_bias(t, ans, input, weight, bias=None):
        return broadcast_like(t, ans)


@rule(ops.softmax)
class softmax:
    torch_name = "Softmax"
    nondiff = ("axis",)

    def vjp_x(g, ans, x, axis=-1):
        return ans * (g - np.sum(g * ans, axis, keepdims=True))

    def jvp_x(t, ans, x, axis=-1):
        return ans * (t - np.sum(t * ans, axis, keepdims=True))


@rule(ops.log_softmax)
class log_softmax:
    torch_name = "LogSoftmax"
    nondiff = ("axis",)

    def vjp_x(g, ans, x, axis=-1):
        return g - np.exp(ans) * np.sum(g, axis, keepdims=True)

    def jvp_x(t, ans, x, axis=-1):
        return t - np.sum(np.exp(ans) * t, axis, keepdims=True)


@rule(ops.logsumexp)
class logsumexp:
    """The derivative is the softmax over ``axis``: ``exp(x - ans)``, ``ans`` spread back
    over the reduced axes."""

    torch_name = "Logsumexp"
    nondiff = ("axis", "keepdims")

    def vjp_x(g, ans, x, axis=None, keepdims=False):
        return (unreduce(g, x, axis=axis, keepdims=keepdims)
                * np.exp(x - unreduce(ans, x, axis=axis, keepdims=keepdims)))

    def jvp_x(t, ans, x, axis=None, keepdims=False):
        return np.sum(t * np.exp(x - unreduce(ans, x, axis=axis, keepdims=keepdims)),
                      axis=axis, keepdims=keepdims)


@rule(ops.rsqrt)
class rsqrt:
    """``d/dx x^(-1/2) = -1/2 x^(-3/2) = -ans^3 / 2``."""

    torch_name = "Rsqrt"

    def vjp_x(g, ans, x):
        return -0.5 * g * ans * ans * ans

    def jvp_x(t, ans, x):
        return -0.5 * t * ans * ans * ans


@rule(ops.lerp)
class lerp:
    torch_name = "Lerp"

    def vjp_start(g, ans, start, end, weight):
        return unbroadcast(g * (1 - weight), start)

    def vjp_end(g, ans, start, end, weight):
        return unbroadcast(g * weight, end)

    def vjp_weight(g, ans, start, end, weight):
        return unbroadcast(g * (end - start), weight)

    def jvp_start(t, ans, start, end, weight):
        return broadcast_like(t * (1 - weight), ans)

    def jvp_end(t, ans, start, end, weight):
        return broadcast_like(t * weight, ans)

    def jvp_weight(t, ans, start, end, weight):
        return broadcast_like(t * (end - start), ans)


@rule(ops.erf)
class erf:
    torch_name = "Erf"

    def vjp_x(g, ans, x):
        return g * (2 / math.sqrt(math.pi)) * np.exp(-x * x)

    def jvp_x(t, ans, x):
        return t * (2 / math.sqrt(math.pi)) * np.exp(-x * x)


@rule(ops.floor, ops.ceil, ops.round, ops.trunc)
class piecewise_constant:
    """Zero wherever the derivative exists, as PyTorch's ``FloorBackward0`` (the runtime
    names each node after its function)."""

    torch_name = "Floor"

    def vjp_x(g, ans, x):
        return np.zeros_like(g)

    def jvp_x(t, ans, x):
        return np.zeros_like(t)


@rule(ops.binary_cross_entropy_with_logits)
class binary_cross_entropy_with_logits:
    torch_name = "BinaryCrossEntropyWithLogits"
    nondiff = ("reduction",)

    def vjp_input(g, ans, input, target, reduction="mean"):
        return (g * (np.exp(-np.logaddexp(0, -input)) - target)
                / (np.size(input) if reduction == "mean" else 1))

    def vjp_target(g, ans, input, target, reduction="mean"):
        return -g * input / (np.size(input) if reduction == "mean" else 1)

    def jvp_input(t, ans, input, target, reduction="mean"):
        return (np.sum(t * (np.exp(-np.logaddexp(0, -input)) - target),
                       axis=() if reduction == "none" else None)
                / (np.size(input) if reduction == "mean" else 1))

    def jvp_target(t, ans, input, target, reduction="mean"):
        return (np.sum(-t * input, axis=() if reduction == "none" else None)
                / (np.size(input) if reduction == "mean" else 1))


@rule(ops.binary_cross_entropy)
class binary_cross_entropy:
    """PyTorch's conventions at the clamped ends: the input's derivative divides by
    ``max(p (1 - p), 1e-12)`` and the target's uses the logs clamped at -100."""

    torch_name = "BinaryCrossEntropy"
    nondiff = ("reduction",)

    def vjp_input(g, ans, input, target, reduction="mean"):
        return (g * (input - target) / np.maximum((1 - input) * input, 1e-12)
                / (np.size(input) if reduction == "mean" else 1))

    def vjp_target(g, ans, input, target, reduction="mean"):
        return (g * (np.maximum(np.log1p(-input), -100) - np.maximum(np.log(input), -100))
                / (np.size(input) if reduction == "mean" else 1))

    def jvp_input(t, ans, input, target, reduction="mean"):
        return (np.sum(t * (input - target) / np.maximum((1 - input) * input, 1e-12),
                       axis=() if reduction == "none" else None)
                / (np.size(input) if reduction == "mean" else 1))

    def jvp_target(t, ans, input, target, reduction="mean"):
        return (np.sum(t * (np.maximum(np.log1p(-input), -100)
                            - np.maximum(np.log(input), -100)),
                       axis=() if reduction == "none" else None)
                / (np.size(input) if reduction == "mean" else 1))


@rule(ops.mse_loss)
class mse_loss:
    torch_name = "MseLoss"
    nondiff = ("reduction",)

    def vjp_input(g, ans, input, target, reduction="mean"):
        return unbroadcast(2 * g * (input - target)
                           / (broadcast_size(input, target) if reduction == "mean" else 1),
                           input)

    def vjp_target(g, ans, input, target, reduction="mean"):
        return unbroadcast(-2 * g * (input - target)
                           / (broadcast_size(input, target) if reduction == "mean" else 1),
                           target)

    def jvp_input(t, ans, input, target, reduction="mean"):
        return (np.sum(2 * t * (input - target), axis=() if reduction == "none" else None)
                / (broadcast_size(input, target) if reduction == "mean" else 1))

    def jvp_target(t, ans, input, target, reduction="mean"):
        return (np.sum(-2 * t * (input - target), axis=() if reduction == "none" else None)
                / (broadcast_size(input, target) if reduction == "mean" else 1))


@rule(ops.cross_entropy)
class cross_entropy:
    """Classes on the last axis of ``(C,)`` or ``(N, C)`` logits; the derivative is
    ``softmax(input) - one_hot(target)``, scaled by the reduction."""

    torch_name = "NllLoss"
    nondiff = ("target", "reduction")

    def vjp_input(g, ans, input, target, reduction="mean"):
        return ((np.expand_dims(g, -1) if reduction == "none" else g)
                * (np.exp(input - np.max(input, axis=-1, keepdims=True))
                   / np.sum(np.exp(input - np.max(input, axis=-1, keepdims=True)), axis=-1,
                            keepdims=True)
                   - np.eye(np.shape(input)[-1], dtype=input.dtype)[target])
                / (np.size(target) if reduction == "mean" else 1))

    def jvp_input(t, ans, input, target, reduction="mean"):
        return (np.sum(t * (np.exp(input - np.max(input, axis=-1, keepdims=True))
                            / np.sum(np.exp(input - np.max(input, axis=-1, keepdims=True)),
                                     axis=-1, keepdims=True)
                            - np.eye(np.shape(input)[-1], dtype=input.dtype)[target]),
                       axis=-1 if reduction == "none" else None)
                / (np.size(target) if reduction == "mean" else 1))
