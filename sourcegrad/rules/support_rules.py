"""Rules for the helpers of ``support.py`` that generated code calls, so that generated code
can itself be differentiated: ``sg.hessian`` runs forward mode over ``grad_f``, and
``sg.grad(sg.grad(f))`` runs reverse mode over it.

Each helper is linear in its first argument (a cotangent or tangent) and reads the others only
for their shapes, except the matmul helpers, which are bilinear. A rule's parameters spell the
helper's signature, renamed where a name would clash with the rule's own ``g``/``t``/``ans``
(generated code passes those arguments by position).
"""

import math

import numpy as np

from . import support
from .registry import nondifferentiable, rule
from .support import (
    average_weights,
    broadcast_each,
    broadcast_like,
    einsum_cross,
    einsum_jvp,
    einsum_jvp_cross,
    einsum_vjp_one,
    gradient_spacing_jvp,
    gradient_spacing_vjp,
    gradient_tangent,
    gradient_vjp,
    join_back,
    last_writes,
    matmul_over_steps,
    matmul_vjp_x1,
    matmul_vjp_x1_over_steps,
    matmul_vjp_x2,
    matmul_vjp_x2_over_steps,
    parts_of_grad,
    quantile_axes,
    quantile_q_shape,
    quantile_slope_weights,
    reduce_like,
    reduced_count,
    reshape_each,
    spectral_norm_curvature,
    split_back,
    through_cast,
    unbroadcast,
    unbroadcast_each,
    unreduce,
    unstack_like,
    written_into,
    zeros_like_grad_with,
)


@rule(support.average_weights)
class average_weights_rule:
    """A reshape of the weights (``1.0`` without them): linear."""

    linear = True
    nondiff = ("a", "axis")

    def vjp_weights(g, ans, weights, a, axis=None):
        return np.reshape(unbroadcast(g, ans), np.shape(weights))


@rule(support.average_total)
class average_total_rule:
    """A sum of the weights: linear."""

    linear = True
    nondiff = ("a", "axis", "keepdims", "returned")

    def vjp_weights(g, ans, weights, a, axis=None, keepdims=False, returned=False):
        return np.reshape(unbroadcast(unreduce(g, a, axis=axis, keepdims=keepdims),
                                      average_weights(weights, a, axis)),
                          np.shape(weights))


@rule(support.through_cast)
class through_cast_rule:
    linear = True
    nondiff = ("dtype",)

    def vjp_d(g, ans, d, dtype):
        return through_cast(g, dtype)


@rule(support.written_into)
class written_into_rule:
    linear = True
    nondiff = ("into",)

    def vjp_d(g, ans, d, into):
        return written_into(g, into)


@rule(support.unbroadcast)
class unbroadcast_rule:
    linear = True
    nondiff = ("x",)

    def vjp_cotangent(g, ans, cotangent, x):
        return broadcast_like(g, cotangent)


@rule(support.broadcast_like)
class broadcast_like_rule:
    linear = True
    nondiff = ("like",)

    def vjp_tangent(g, ans, tangent, like):
        return unbroadcast(g, tangent)


@rule(support.unreduce)
class unreduce_rule:
    linear = True
    nondiff = ("x", "axis", "keepdims")

    def vjp_cotangent(g, ans, cotangent, x, axis=None, keepdims=False):
        return reduce_like(g, cotangent, axis=axis, keepdims=keepdims)


@rule(support.reduce_like)
class reduce_like_rule:
    linear = True
    nondiff = ("cotangent", "axis", "keepdims")

    def vjp_summed(g, ans, summed, cotangent, axis=None, keepdims=False):
        return unreduce(g, summed, axis=axis, keepdims=keepdims)


@rule(support.as_gradient)
class as_gradient_rule:
    sequence_output = True
    sequence_params = ("grad",)
    linear = True
    nondiff = ("x",)

    def vjp_grad(g, ans, grad, x):
        return unbroadcast_each(g, grad)


@rule(support.unbroadcast_each)
class unbroadcast_each_rule:
    """``unbroadcast`` leaf by leaf; recursive, so it needs a rule of its own."""

    sequence_output = True
    sequence_params = ("cotangent",)
    linear = True
    nondiff = ("x",)

    def vjp_cotangent(g, ans, cotangent, x):
        return broadcast_each(g, cotangent)


@rule(support.broadcast_each)
class broadcast_each_rule:
    sequence_output = True
    sequence_params = ("tangent",)
    linear = True
    nondiff = ("like",)

    def vjp_tangent(g, ans, tangent, like):
        return unbroadcast_each(g, tangent)


@rule(support.private_copy)
class private_copy_rule:
    sequence_output = True
    sequence_params = ("value",)
    linear = True

    def vjp_value(g, ans, value):
        return g


@rule(support.add_grads)
class add_grads_rule:
    sequence_output = True
    sequence_params = ("a", "b")
    def vjp_a(g, ans, a, b):
        return g

    def vjp_b(g, ans, a, b):
        return g

    def jvp_a(t, ans, a, b):
        return t

    def jvp_b(t, ans, a, b):
        return t


@rule(support.zeros_like_grad_with)
class zeros_like_grad_with_rule:
    """A structure's cotangent holding ``parts`` at their keys, zeros elsewhere: linear in
    ``parts``, whose cotangent is the entries of ``g`` at those keys."""
    sequence_output = True
    sequence_params = ("parts",)
    linear = True
    nondiff = ("x",)

    def vjp_parts(g, ans, x, parts):
        return parts_of_grad(g, parts)


@rule(support.parts_of_grad)
class parts_of_grad_rule:
    """The entries of a cotangent at the keys of ``parts``: linear in the cotangent
    (``zeros_like_grad_with`` is its adjoint)."""
    sequence_output = True
    sequence_params = ("cotangent",)
    linear = True
    nondiff = ("parts",)

    def vjp_cotangent(g, ans, cotangent, parts):
        return zeros_like_grad_with(cotangent, g)


@rule(support.matmul_vjp_x1)
class matmul_vjp_x1_rule:
    """``cotangent @ x2.T`` (generalized): bilinear in ``cotangent`` and ``x2``."""

    nondiff = ("x1",)

    def vjp_cotangent(g, ans, cotangent, x1, x2):
        return np.matmul(g, x2)

    def vjp_x2(g, ans, cotangent, x1, x2):
        return matmul_vjp_x2(cotangent, g, x2)

    def jvp_cotangent(t, ans, cotangent, x1, x2):
        return matmul_vjp_x1(t, x1, x2)

    def jvp_x2(t, ans, cotangent, x1, x2):
        return matmul_vjp_x1(cotangent, x1, t)


@rule(support.matmul_vjp_x2)
class matmul_vjp_x2_rule:
    """``x1.T @ cotangent`` (generalized): bilinear in ``cotangent`` and ``x1``."""

    nondiff = ("x2",)

    def vjp_cotangent(g, ans, cotangent, x1, x2):
        return np.matmul(x1, g)

    def vjp_x1(g, ans, cotangent, x1, x2):
        return matmul_vjp_x1(cotangent, x1, g)

    def jvp_cotangent(t, ans, cotangent, x1, x2):
        return matmul_vjp_x2(t, x1, x2)

    def jvp_x1(t, ans, cotangent, x1, x2):
        return matmul_vjp_x2(cotangent, t, x2)



# -- a loop's matrix products as one (passes/batched_products.py) ---------------------------
# ``matmul_over_steps(xs, w)`` is ``[xs[t] @ w for t]`` (or ``xs @ w``, one array): the other
# two helpers are its cotangents, and the three are each other's derivatives, so that
# derivatives of any order through a loop close over them. A cotangent or tangent has the
# form (one array or a list of steps) of what it belongs to, and each helper decides the
# form of its result from its arguments' the way ``matmul_over_steps`` does.
@rule(support.matmul_over_steps)
class matmul_over_steps_rule:
    """The steps' products: bilinear in ``xs`` and ``w``."""

    sequence_output = True
    sequence_params = ("xs",)

    def vjp_xs(g, ans, xs, w):
        return matmul_vjp_x1_over_steps(g, xs, w)

    def vjp_w(g, ans, xs, w):
        return matmul_vjp_x2_over_steps(g, xs, w)

    def jvp_xs(t, ans, xs, w):
        return matmul_over_steps(t, w)

    def jvp_w(t, ans, xs, w):
        return matmul_over_steps(xs, t)


@rule(support.matmul_vjp_x1_over_steps)
class matmul_vjp_x1_over_steps_rule:
    """Each step's ``gs[t] @ w.T`` (generalized): bilinear in ``gs`` and ``w``."""

    sequence_output = True
    sequence_params = ("gs", "xs")
    nondiff = ("xs",)

    def vjp_gs(g, ans, gs, xs, w):
        return matmul_over_steps(g, w)

    def vjp_w(g, ans, gs, xs, w):
        return matmul_vjp_x2_over_steps(gs, g, w)

    def jvp_gs(t, ans, gs, xs, w):
        return matmul_vjp_x1_over_steps(t, xs, w)

    def jvp_w(t, ans, gs, xs, w):
        return matmul_vjp_x1_over_steps(gs, xs, t)


@rule(support.matmul_vjp_x2_over_steps)
class matmul_vjp_x2_over_steps_rule:
    """``sum_t x1s[t].T @ gs[t]`` (generalized): bilinear in ``gs`` and ``x1s``."""

    sequence_params = ("gs", "x1s")
    nondiff = ("x2",)

    def vjp_gs(g, ans, gs, x1s, x2):
        return matmul_over_steps(x1s, g)

    def vjp_x1s(g, ans, gs, x1s, x2):
        return matmul_vjp_x1_over_steps(gs, x1s, g)

    def jvp_gs(t, ans, gs, x1s, x2):
        return matmul_vjp_x2_over_steps(t, x1s, x2)

    def jvp_x1s(t, ans, gs, x1s, x2):
        return matmul_vjp_x2_over_steps(gs, t, x2)


nondifferentiable(
    support.scalar_seed, support.zeros_like_grad, support.zeros_like_sequence,
    support.zero_slots,
    support.row_sparse_zeros, support.no_cotangent, support.reduced_count,
    support.broadcast_size, support.tie_weights, support.degrees_of_freedom,
    support.unit_tangents,
    support.lower_bound, support.upper_bound, support.inverse_permutation, support.dot_axes,
    support.inner_axes, support.linspace_weights, support.shape_only, support.einsum_positions,
    support.positions_of, support.select_masks, support.rollaxis_destination, support.block_shape,
    support.no_derivative, support.along_axis_index, support.element_count,
    support.shape_of_elementwise, support.is_foreign_array, support.is_lazy_array,
    support.quantile_axes,
    support.quantile_kept_axes, support.leading_axes, support.quantile_slope_weights,
    support.quantile_trailing_axes, support.quantile_q_shape,
    support.enough_steps,
    reason="seeds, zeros, counts, masks, axes and shapes: constants for differentiation",
)


@rule(list, tuple)
class list_rule:
    """``list(a)`` / ``tuple(a)``: the rows of an array (or the items of a sequence) as a list
    or a tuple. The cotangent of a sequence is a list (as ``add_grads`` makes them), whatever
    the sequence's type."""
    sequence_output = True
    sequence_params = ("x",)

    linear = True
    sequence_output = True

    def vjp_x(g, ans, x):
        return list(g) if isinstance(x, (list, tuple)) else np.reshape(np.stack(g), np.shape(x))


@rule(math.copysign, np.copysign)
class copysign:
    """``|x1|`` with the sign of ``x2``; the sign's source is piecewise constant. (``math.fabs``'s
    own rule uses ``math.copysign``, so this is what its second derivative needs.)"""

    nondiff = ("x2",)

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * np.copysign(1.0, x1) * np.copysign(1.0, x2), x1)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * np.copysign(1.0, x1) * np.copysign(1.0, x2), ans)


@rule(support.undiagonal)
class undiagonal_rule:
    """Writes ``cotangent`` onto a diagonal of zeros (``diagonal``'s and ``trace``'s VJP)."""

    linear = True
    nondiff = ("a", "offset", "axis1", "axis2")

    def vjp_cotangent(g, ans, cotangent, a, offset=0, axis1=0, axis2=1):
        return unbroadcast(np.diagonal(g, offset=offset, axis1=axis1, axis2=axis2), cotangent)


@rule(np.bincount)
class bincount:
    """Linear in ``weights`` (``getitem``'s VJP scatters with it); the bins are integers."""

    linear = True
    nondiff = ("x", "minlength")

    def vjp_weights(g, ans, x, weights=None, minlength=0):
        return np.reshape(np.take(g, x), np.shape(weights))


@rule(support.one_if_single)
class one_if_single_rule:
    """The identity where several elements were reduced, a constant where one was."""

    nondiff = ("x",)

    def vjp_value(g, ans, value, x):
        return g * (reduced_count(x, value) > 1)

    def jvp_value(t, ans, value, x):
        return t * (reduced_count(x, value) > 1)


@rule(support.last_writes)
class last_writes_rule:
    """A mask fixed by the index: linear in ``part``, and its own adjoint."""

    linear = True
    nondiff = ("base", "index")

    def vjp_part(g, ans, part, base, index):
        return last_writes(g, base, index)


# -- the scatter helpers of shape rules: each is the adjoint of the primitive it undoes -----
@rule(support.split_back)
class split_back_rule:
    sequence_output = True
    linear = True
    nondiff = ("arrays", "axis", "promote")

    def vjp_cotangent(g, ans, cotangent, arrays, axis=0, promote=None):
        return join_back(g, arrays, axis=axis, promote=promote)


@rule(support.join_back)
class join_back_rule:
    sequence_params = ("pieces",)
    linear = True
    nondiff = ("arrays", "axis", "promote")

    def vjp_pieces(g, ans, pieces, arrays, axis=0, promote=None):
        return split_back(g, arrays, axis=axis, promote=promote)


@rule(support.reshape_each)
class reshape_each_rule:
    """Its own adjoint: the cotangents go back to the shapes (and structure) of ``parts``."""
    sequence_params = ("parts",)
    sequence_output = True

    linear = True
    nondiff = ("like",)

    def vjp_parts(g, ans, parts, like):
        return reshape_each(g, parts)


@rule(support.unstack_like)
class unstack_like_rule:
    sequence_output = True
    linear = True
    nondiff = ("obj",)

    def vjp_cotangent(g, ans, cotangent, obj):
        return np.reshape(np.array(g), np.shape(cotangent))


@rule(support.untile)
class untile_rule:
    linear = True
    nondiff = ("a", "reps")

    def vjp_cotangent(g, ans, cotangent, a, reps):
        return np.tile(g, reps)


@rule(support.unrepeat)
class unrepeat_rule:
    linear = True
    nondiff = ("a", "repeats", "axis")

    def vjp_cotangent(g, ans, cotangent, a, repeats, axis=None):
        return np.repeat(g, repeats, axis=axis)


@rule(support.untake)
class untake_rule:
    linear = True
    nondiff = ("a", "indices", "axis", "mode")

    def vjp_cotangent(g, ans, cotangent, a, indices, axis=None, mode="raise"):
        return np.take(g, indices, axis=axis, mode=mode)


@rule(support.untake_along_axis)
class untake_along_axis_rule:
    linear = True
    nondiff = ("arr", "indices", "axis")

    def vjp_cotangent(g, ans, cotangent, arr, indices, axis=-1):
        return np.take_along_axis(g, indices, axis=axis)


@rule(support.spectral_norm_derivative)
class spectral_norm_derivative_rule:
    """The derivative of a norm's gradient is its Hessian, which is self-adjoint: the VJP and
    the JVP are the same map."""

    nondiff = ("ord",)

    def vjp_x(g, ans, x, ord):
        return spectral_norm_curvature(g, x, ord)

    def jvp_x(t, ans, x, ord):
        return spectral_norm_curvature(t, x, ord)


# -- einsum's helpers: multilinear, so every derivative is an einsum again (einsum_cross) --
@rule(support.einsum_vjp_one)
class einsum_vjp_one_rule:
    """The cotangent of operand ``k`` (``-1``: ``subscripts``, an operand in the interleaved
    form), linear in ``cotangent`` and in the other operands."""
    sequence_params = ("operands",)

    nondiff = ("k",)

    def vjp_cotangent(g, ans, cotangent, subscripts, operands, k):
        return einsum_jvp([g if i == k else None for i in range(len(operands))], subscripts,
                          operands, first=g if k == -1 else None)

    def vjp_subscripts(g, ans, cotangent, subscripts, operands, k):
        return einsum_cross(cotangent, subscripts, operands,
                            [g if i == k else None for i in range(len(operands))], -1)

    def vjp_operands(g, ans, cotangent, subscripts, operands, k):
        return [einsum_cross(cotangent, subscripts, operands,
                             [g if i == k else None for i in range(len(operands))], j,
                             first=g if k == -1 else None)
                for j in range(len(operands))]

    def jvp_cotangent(t, ans, cotangent, subscripts, operands, k):
        return einsum_vjp_one(t, subscripts, operands, k)

    def jvp_subscripts(t, ans, cotangent, subscripts, operands, k):
        return einsum_cross(cotangent, subscripts, operands, None, k, first=t)

    def jvp_operands(t, ans, cotangent, subscripts, operands, k):
        return einsum_cross(cotangent, subscripts, operands, t, k)


@rule(support.einsum_jvp)
class einsum_jvp_rule:
    """The tangent of the output, linear in ``tangents``, in ``first`` and in each
    operand."""
    sequence_params = ("tangents", "operands")

    def vjp_tangents(g, ans, tangents, subscripts, operands, first=None):
        return [einsum_vjp_one(g, subscripts, operands, k) for k in range(len(operands))]

    def vjp_first(g, ans, tangents, subscripts, operands, first=None):
        return einsum_vjp_one(g, subscripts, operands, -1)

    def vjp_subscripts(g, ans, tangents, subscripts, operands, first=None):
        return einsum_cross(g, subscripts, operands, tangents, -1)

    def vjp_operands(g, ans, tangents, subscripts, operands, first=None):
        return [einsum_cross(g, subscripts, operands, tangents, j, first=first)
                for j in range(len(operands))]

    def jvp_tangents(t, ans, tangents, subscripts, operands, first=None):
        return einsum_jvp(t, subscripts, operands)

    def jvp_first(t, ans, tangents, subscripts, operands, first=None):
        return einsum_jvp(None, subscripts, operands, first=t)

    def jvp_subscripts(t, ans, tangents, subscripts, operands, first=None):
        return einsum_jvp_cross(tangents, subscripts, operands, None, ans, t_first=first,
                                first=t)

    def jvp_operands(t, ans, tangents, subscripts, operands, first=None):
        return einsum_jvp_cross(tangents, subscripts, operands, t, ans, t_first=first)


@rule(support.unblock)
class unblock_rule:
    """Cuts a cotangent into ``np.block``'s nesting (recursively, so it needs a rule of its
    own); its adjoint joins the pieces back with ``np.block``."""
    sequence_output = True

    linear = True
    nondiff = ("arrays", "depth", "ndim")

    def vjp_cotangent(g, ans, cotangent, arrays, depth=None, ndim=None):
        return np.block(g)


@rule(support.gradient_tangent)
class gradient_tangent_rule:
    """``np.gradient`` with its spacings in one tuple (its own rule, spelled alike)."""
    sequence_params = ("varargs",)

    sequence_output = True
    nondiff = ("axis", "edge_order")

    def vjp_tangent(g, ans, tangent, varargs=(), axis=None, edge_order=1):
        return gradient_vjp(g, tangent, varargs, axis=axis, edge_order=edge_order)

    def vjp_varargs(g, ans, tangent, varargs=(), axis=None, edge_order=1):
        return gradient_spacing_vjp(g, ans, tangent, varargs, axis=axis)

    def jvp_tangent(t, ans, tangent, varargs=(), axis=None, edge_order=1):
        return gradient_tangent(t, varargs, axis=axis, edge_order=edge_order)

    def jvp_varargs(t, ans, tangent, varargs=(), axis=None, edge_order=1):
        return gradient_spacing_jvp(t, ans, tangent, varargs, axis=axis)


@rule(support.quantile_weights)
class quantile_weights:
    """Constant in ``a`` (away from ties: the sorted order does not move), linear in ``q``
    between two sorted positions, at the slope ``quantile_slope_weights`` gives."""

    sequence_params = ("q",)
    nondiff = ("a", "axis", "method")

    def vjp_q(g, ans, a, q, axis=None, method="linear"):
        return unstack_like(np.sum(g * quantile_slope_weights(a, q, axis, method),
                                   axis=quantile_axes(a, q)), q)

    def jvp_q(t, ans, a, q, axis=None, method="linear"):
        return np.reshape(np.array(t), quantile_q_shape(a, q)) * quantile_slope_weights(
            a, q, axis, method)
