"""Derivatives of the functions that move, copy, join, cut or select elements without
arithmetic: transposes, reshapes, joins and splits, flips, triangles, indexing, sorting and
array construction.

All but ``sort`` are linear in their array, so their JVP is the function applied to the
tangent and only the VJP, the adjoint of the data movement, is written.
"""

import numpy as np

from .registry import rule
from .support import (
    along_samples,
    arange_start_weight,
    arange_steps,
    as_column,
    broadcast_like,
    concatenate_c,
    concatenate_r,
    cross_vjp_a,
    cross_vjp_b,
    diff_tangent,
    diff_vjp,
    gradient_spacing_jvp,
    gradient_spacing_vjp,
    gradient_tangent,
    gradient_vjp,
    inverse_permutation,
    linspace_weights,
    pad_fill_vjp,
    pad_tangent,
    positions_of,
    reshape_each,
    rollaxis_destination,
    select_masks,
    split_back,
    unblock,
    unbroadcast,
    undiagonal,
    ungather,
    unpad,
    unrepeat,
    unstack_like,
    untake,
    untake_along_axis,
    untile,
    written_into,
    zeros_like_grad,
)

# ---------------------------------------------------------------- axes, shapes and copies


@rule(np.transpose)
class transpose:
    torch_name = "Permute"
    linear = True
    nondiff = ("axes",)

    def vjp_a(g, ans, a, axes=None):
        return np.transpose(g, inverse_permutation(a, axes=axes))


@rule(np.swapaxes)
class swapaxes:
    torch_name = "Transpose"
    linear = True
    nondiff = ("axis1", "axis2")

    def vjp_a(g, ans, a, axis1, axis2):
        return np.swapaxes(g, axis1, axis2)


@rule(np.moveaxis)
class moveaxis:
    torch_name = "Permute"
    linear = True
    nondiff = ("source", "destination")

    def vjp_a(g, ans, a, source, destination):
        return np.moveaxis(g, destination, source)


@rule(np.reshape)
class reshape:
    torch_name = "Reshape"
    linear = True
    nondiff = ("shape", "order", "copy")

    def vjp_a(g, ans, a, shape, order="C", copy=None):
        return np.reshape(g, np.shape(a), order=order)


@rule(np.ravel)
class ravel:
    torch_name = "Reshape"
    linear = True
    nondiff = ("order",)

    def vjp_a(g, ans, a, order="C"):
        return np.reshape(g, np.shape(a), order=order)


@rule(np.squeeze)
class squeeze:
    torch_name = "Squeeze"
    linear = True
    nondiff = ("axis",)

    def vjp_a(g, ans, a, axis=None):
        return np.reshape(g, np.shape(a))


@rule(np.expand_dims)
class expand_dims:
    torch_name = "Unsqueeze"
    linear = True
    nondiff = ("axis",)

    def vjp_a(g, ans, a, axis):
        return np.reshape(g, np.shape(a))


@rule(np.atleast_1d, np.atleast_2d, np.atleast_3d)
class atleast_nd:
    """One array gives one array, several give a tuple; the cotangents are a tuple either
    way (see the registry's note on variadic parameters). Linear: the tangent is each
    array's tangent reshaped like its output. One rule serves the three functions."""

    torch_name = "Reshape"

    def vjp_arys(g, ans, *arys):
        return reshape_each(g, arys)

    def jvp_arys(t, ans, *arys):
        return reshape_each(t, ans)


@rule(np.broadcast_to)
class broadcast_to:
    torch_name = "Expand"
    linear = True
    nondiff = ("shape", "subok")

    def vjp_array(g, ans, array, shape, subok=False):
        return unbroadcast(g, array)


@rule(np.array)
class array:
    """A nested list of arrays or numbers gets its cotangent back as the same nesting.
    ``dtype`` casts do not change the cotangent's dtype."""
    sequence_params = ("object",)

    torch_name = "Stack"
    linear = True
    nondiff = ("dtype", "copy", "order", "subok", "ndmin")

    def vjp_object(g, ans, object, dtype=None, copy=True, order="K", subok=False, ndmin=0):
        return unstack_like(g, object)


@rule(np.asarray)
class asarray:
    sequence_params = ("a",)
    torch_name = "Stack"
    linear = True
    nondiff = ("dtype", "order")

    def vjp_a(g, ans, a, dtype=None, order=None):
        return unstack_like(g, a)


@rule(np.copy)
class copy:
    sequence_params = ("a",)
    torch_name = "Clone"
    linear = True
    nondiff = ("order", "subok")

    def vjp_a(g, ans, a, order="K", subok=False):
        return unstack_like(g, a)


@rule(np.full)
class full:
    """Differentiable in ``fill_value``, which is broadcast over ``shape``."""

    torch_name = "Expand"
    linear = True
    nondiff = ("shape", "dtype", "order")

    def vjp_fill_value(g, ans, shape, fill_value, dtype=None, order="C"):
        return unbroadcast(g, fill_value)


@rule(np.full_like)
class full_like:
    """The value is written into an array of ``a``'s dtype (or ``dtype``'s): into an
    integer one it is truncated, and keeps no derivative (``written_into(g, ans)``)."""

    torch_name = "Expand"
    linear = True
    nondiff = ("a", "dtype", "order", "subok", "shape")

    def vjp_fill_value(g, ans, a, fill_value, dtype=None, order="K", subok=True, shape=None):
        return unbroadcast(written_into(g, ans), fill_value)

    def jvp_fill_value(t, ans, a, fill_value, dtype=None, order="K", subok=True, shape=None):
        return written_into(np.full_like(ans, t), ans)


@rule(np.arange)
class arange:
    """Each value is ``start + i * step``: differentiable in ``start`` and ``step``; the count,
    which ``stop`` decides, is piecewise constant (the derivative is 0 in ``stop``, and in the
    one argument of ``np.arange(stop)``)."""

    torch_name = "Arange"
    nondiff = ("stop", "dtype", "device", "like")

    def vjp_start_or_stop(g, ans, start_or_stop, stop=None, step=1, *, dtype=None,
                          device=None, like=None):
        return unbroadcast(np.sum(g) * arange_start_weight(stop), start_or_stop)

    def vjp_step(g, ans, start_or_stop, stop=None, step=1, *, dtype=None, device=None,
                 like=None):
        return unbroadcast(np.sum(g * arange_steps(ans)), step)

    def jvp_start_or_stop(t, ans, start_or_stop, stop=None, step=1, *, dtype=None,
                          device=None, like=None):
        return broadcast_like(t * arange_start_weight(stop), ans)

    def jvp_step(t, ans, start_or_stop, stop=None, step=1, *, dtype=None, device=None,
                 like=None):
        return t * arange_steps(ans)


@rule(np.linspace)
class linspace:
    """Differentiable in ``start`` and ``stop`` (each sample is a weighted mean of the two);
    ``retstep=True`` is refused."""

    torch_name = "Linspace"
    nondiff = ("num", "endpoint", "retstep", "dtype", "axis")

    def vjp_start(g, ans, start, stop, num=50, endpoint=True, retstep=False, dtype=None,
                  axis=0):
        return unbroadcast(
            np.sum(g * (1 - linspace_weights(ans, num, endpoint=endpoint, axis=axis)), axis),
            start)

    def vjp_stop(g, ans, start, stop, num=50, endpoint=True, retstep=False, dtype=None,
                 axis=0):
        return unbroadcast(
            np.sum(g * linspace_weights(ans, num, endpoint=endpoint, axis=axis), axis), stop)

    def jvp_start(t, ans, start, stop, num=50, endpoint=True, retstep=False, dtype=None,
                  axis=0):
        return along_samples(t, ans, axis=axis) * (
            1 - linspace_weights(ans, num, endpoint=endpoint, axis=axis))

    def jvp_stop(t, ans, start, stop, num=50, endpoint=True, retstep=False, dtype=None,
                 axis=0):
        return along_samples(t, ans, axis=axis) * linspace_weights(
            ans, num, endpoint=endpoint, axis=axis)


# ----------------------------------------------------------------------- repeat and join


@rule(np.tile)
class tile:
    torch_name = "Repeat"
    linear = True
    nondiff = ("reps",)

    def vjp_A(g, ans, A, reps):
        return untile(g, A, reps)


@rule(np.repeat)
class repeat:
    torch_name = "RepeatInterleave"
    linear = True
    nondiff = ("repeats", "axis")

    def vjp_a(g, ans, a, repeats, axis=None):
        return unrepeat(g, a, repeats, axis=axis)


@rule(np.concatenate)
class concatenate:
    """``arrays`` is a list: its cotangent is a list, one piece of ``g`` per array."""
    sequence_params = ("arrays",)

    torch_name = "Cat"
    linear = True
    nondiff = ("axis", "out", "dtype", "casting")

    def vjp_arrays(g, ans, arrays, axis=0, out=None, dtype=None, casting="same_kind"):
        return split_back(g, arrays, axis=axis)


@rule(concatenate_r)
class concatenate_r_rule:
    """``np.r_[a, b, ...]`` over arrays and numbers (``resolve`` maps the subscript here, and
    refuses slices and string directives). Its tangent is ``np.r_`` of the tangents."""

    torch_name = "Cat"
    sequence_params = ("items",)
    linear = True

    def vjp_items(g, ans, items):
        return split_back(g, items, axis=0, promote=np.atleast_1d)


@rule(concatenate_c)
class concatenate_c_rule:
    """``np.c_[a, b, ...]``: numbers and 1-d items are columns, joined along the last axis."""

    torch_name = "Cat"
    sequence_params = ("items",)
    linear = True

    def vjp_items(g, ans, items):
        return split_back(g, items, axis=-1, promote=as_column)


@rule(np.stack)
class stack:
    sequence_params = ("arrays",)
    torch_name = "Stack"
    linear = True
    nondiff = ("axis", "out", "dtype", "casting")

    def vjp_arrays(g, ans, arrays, axis=0, out=None, dtype=None, casting="same_kind"):
        return list(np.moveaxis(g, axis, 0))


@rule(np.hstack)
class hstack:
    """Joins along axis 0 if the arrays are 1-D (after ``atleast_1d``), else along axis 1."""
    sequence_params = ("tup",)

    torch_name = "Cat"
    linear = True
    nondiff = ("dtype", "casting")

    def vjp_tup(g, ans, tup, dtype=None, casting="same_kind"):
        return split_back(g, tup, 0 if np.ndim(tup[0]) <= 1 else 1, np.atleast_1d)


@rule(np.vstack, getattr(np, "row_stack", None))
class vstack:
    sequence_params = ("tup",)
    torch_name = "Cat"
    linear = True
    nondiff = ("dtype", "casting")

    def vjp_tup(g, ans, tup, dtype=None, casting="same_kind"):
        return split_back(g, tup, 0, np.atleast_2d)


@rule(np.split)
class split:
    """Returns a list, so ``g`` is a list of cotangents (zeros materialized by the caller)."""
    sequence_output = True

    torch_name = "Split"
    linear = True
    nondiff = ("indices_or_sections", "axis")

    def vjp_ary(g, ans, ary, indices_or_sections, axis=0):
        return np.concatenate(g, axis=axis)


@rule(np.array_split)
class array_split:
    sequence_output = True
    torch_name = "Split"
    linear = True
    nondiff = ("indices_or_sections", "axis")

    def vjp_ary(g, ans, ary, indices_or_sections, axis=0):
        return np.concatenate(g, axis=axis)


# --------------------------------------------------------------- flips, rolls, triangles


@rule(np.flip)
class flip:
    torch_name = "Flip"
    linear = True
    nondiff = ("axis",)

    def vjp_m(g, ans, m, axis=None):
        return np.flip(g, axis=axis)


@rule(np.fliplr)
class fliplr:
    torch_name = "Flip"
    linear = True

    def vjp_m(g, ans, m):
        return np.fliplr(g)


@rule(np.flipud)
class flipud:
    torch_name = "Flip"
    linear = True

    def vjp_m(g, ans, m):
        return np.flipud(g)


@rule(np.roll)
class roll:
    torch_name = "Roll"
    linear = True
    nondiff = ("shift", "axis")

    def vjp_a(g, ans, a, shift, axis=None):
        return np.roll(g, np.negative(shift), axis=axis)


@rule(np.triu)
class triu:
    torch_name = "Triu"
    linear = True
    nondiff = ("k",)

    def vjp_m(g, ans, m, k=0):
        return np.triu(g, k=k)


@rule(np.tril)
class tril:
    torch_name = "Tril"
    linear = True
    nondiff = ("k",)

    def vjp_m(g, ans, m, k=0):
        return np.tril(g, k=k)


@rule(np.diag)
class diag:
    """Builds a diagonal matrix from a 1-D ``v``, or extracts a diagonal from a 2-D one."""

    torch_name = "Diag"
    linear = True
    nondiff = ("k",)

    def vjp_v(g, ans, v, k=0):
        return np.diagonal(g, offset=k) if np.ndim(v) == 1 else undiagonal(g, v, offset=k)


@rule(np.diagonal)
class diagonal:
    torch_name = "Diagonal"
    linear = True
    nondiff = ("offset", "axis1", "axis2")

    def vjp_a(g, ans, a, offset=0, axis1=0, axis2=1):
        return undiagonal(g, a, offset=offset, axis1=axis1, axis2=axis2)


# ---------------------------------------------------------------------- indexing, sorting


@rule(np.take)
class take:
    """Repeated indices accumulate their cotangents."""

    torch_name = "Take"
    linear = True
    nondiff = ("indices", "axis", "out", "mode")

    def vjp_a(g, ans, a, indices, axis=None, out=None, mode="raise"):
        return untake(g, a, indices, axis=axis, mode=mode)


@rule(np.take_along_axis)
class take_along_axis:
    torch_name = "Gather"
    linear = True
    nondiff = ("indices", "axis")

    def vjp_arr(g, ans, arr, indices, axis=-1):
        return untake_along_axis(g, arr, indices, axis=axis)


@rule(np.sort)
class sort:
    """The cotangent is routed back through the sorting permutation (a stable argsort, so
    tied elements each get the cotangent of one output position)."""

    torch_name = "Sort"
    nondiff = ("axis", "kind", "order", "stable")

    def vjp_a(g, ans, a, axis=-1, kind=None, order=None, stable=None):
        return untake_along_axis(g, a, np.argsort(a, axis=axis, kind="stable"), axis=axis)

    def jvp_a(t, ans, a, axis=-1, kind=None, order=None, stable=None):
        return np.take_along_axis(t, np.argsort(a, axis=axis, kind="stable"), axis)


@rule(np.partition)
class partition:
    """Like ``sort``: the cotangent goes back through the permutation ``np.argpartition``
    gives (the same selection algorithm, so the same order)."""

    torch_name = "Partition"
    nondiff = ("kth", "axis", "kind", "order")

    def vjp_a(g, ans, a, kth, axis=-1, kind="introselect", order=None):
        return untake_along_axis(g, a, np.argpartition(a, kth, axis=axis), axis=axis)

    def jvp_a(t, ans, a, kth, axis=-1, kind="introselect", order=None):
        return np.take_along_axis(t, np.argpartition(a, kth, axis=axis), axis)


# ------------------------------------------------------------ more joins, splits and moves


@rule(np.rot90)
class rot90:
    torch_name = "Rot90"
    linear = True
    nondiff = ("k", "axes")

    def vjp_m(g, ans, m, k=1, axes=(0, 1)):
        return np.rot90(g, -k, axes=axes)


@rule(np.rollaxis)
class rollaxis:
    torch_name = "Permute"
    linear = True
    nondiff = ("axis", "start")

    def vjp_a(g, ans, a, axis, start=0):
        return np.moveaxis(g, rollaxis_destination(a, axis, start), axis)


@rule(getattr(np, "matrix_transpose", None), getattr(np.linalg, "matrix_transpose", None))
class matrix_transpose:
    torch_name = "Transpose"
    linear = True

    def vjp_x(g, ans, x):
        return np.swapaxes(g, -1, -2)


@rule(np.diagflat)
class diagflat:
    """``v`` flattened onto the ``k``-th diagonal of a square matrix."""

    torch_name = "DiagEmbed"
    linear = True
    nondiff = ("k",)

    def vjp_v(g, ans, v, k=0):
        return np.reshape(np.diagonal(g, offset=k), np.shape(v))


@rule(np.column_stack)
class column_stack:
    """1-D arrays become columns, then everything joins along axis 1."""
    sequence_params = ("tup",)

    torch_name = "Cat"
    linear = True

    def vjp_tup(g, ans, tup):
        return split_back(g, tup, 1, as_column)


@rule(np.dstack)
class dstack:
    sequence_params = ("tup",)
    torch_name = "Cat"
    linear = True

    def vjp_tup(g, ans, tup):
        return split_back(g, tup, 2, np.atleast_3d)


@rule(np.append)
class append:
    """``values`` joined after ``arr`` along ``axis``; both flattened when ``axis`` is
    ``None``."""
    sequence_params = ("arr", "values")

    torch_name = "Cat"
    nondiff = ("axis",)

    def vjp_arr(g, ans, arr, values, axis=None):
        return unstack_like(split_back(g, [arr, values], axis=axis)[0], arr)

    def vjp_values(g, ans, arr, values, axis=None):
        return unstack_like(split_back(g, [arr, values], axis=axis)[1], values)

    def jvp_arr(t, ans, arr, values, axis=None):
        return np.append(t, zeros_like_grad(values), axis=axis)

    def jvp_values(t, ans, arr, values, axis=None):
        return np.append(zeros_like_grad(arr), t, axis=axis)


@rule(np.vsplit)
class vsplit:
    sequence_output = True
    torch_name = "Split"
    linear = True
    nondiff = ("indices_or_sections",)

    def vjp_ary(g, ans, ary, indices_or_sections):
        return np.vstack(g)


@rule(np.hsplit)
class hsplit:
    sequence_output = True
    torch_name = "Split"
    linear = True
    nondiff = ("indices_or_sections",)

    def vjp_ary(g, ans, ary, indices_or_sections):
        return np.hstack(g)


@rule(np.dsplit)
class dsplit:
    sequence_output = True
    torch_name = "Split"
    linear = True
    nondiff = ("indices_or_sections",)

    def vjp_ary(g, ans, ary, indices_or_sections):
        return np.dstack(g)


@rule(getattr(np, "unstack", None))
class unstack:
    sequence_output = True
    torch_name = "Unbind"
    linear = True
    nondiff = ("axis",)

    def vjp_x(g, ans, x, axis=0):
        return np.stack(g, axis=axis)


@rule(np.broadcast_arrays)
class broadcast_arrays:
    """Each array broadcast against the others; cotangents summed back to each shape."""

    sequence_output = True
    torch_name = "Expand"
    nondiff = ("subok",)

    def vjp_args(g, ans, *args, subok=False):
        return [unbroadcast(gi, a) for gi, a in zip(g, args, strict=True)]

    def jvp_args(t, ans, *args, subok=False):
        return [zeros_like_grad(a) if ti is None else broadcast_like(ti, a)
                for ti, a in zip(t, ans, strict=True)]


@rule(np.block)
class block:
    """Nested lists of arrays; the cotangent comes back as the same nesting."""
    sequence_params = ("arrays",)

    torch_name = "Cat"
    linear = True

    def vjp_arrays(g, ans, arrays):
        return unblock(g, arrays)


@rule(np.select)
class select:
    """Each choice receives the cotangent where its condition is the first true one;
    ``default`` where none is."""
    sequence_params = ("choicelist",)

    torch_name = "Where"
    nondiff = ("condlist",)

    def vjp_choicelist(g, ans, condlist, choicelist, default=0):
        return [unbroadcast(g * mask, choice)
                for mask, choice in zip(select_masks(condlist)[:-1], choicelist, strict=True)]

    def vjp_default(g, ans, condlist, choicelist, default=0):
        return unbroadcast(g * select_masks(condlist)[-1], default)

    def jvp_choicelist(t, ans, condlist, choicelist, default=0):
        return broadcast_like(sum([mask * tc for mask, tc in zip(select_masks(condlist)[:-1], t,
                                                                  strict=True)]), ans)

    def jvp_default(t, ans, condlist, choicelist, default=0):
        return broadcast_like(t * select_masks(condlist)[-1], ans)


@rule(np.resize)
class resize:
    """The elements of ``a`` repeated in order to fill ``new_shape``."""

    torch_name = "Resize"
    linear = True
    nondiff = ("new_shape",)

    def vjp_a(g, ans, a, new_shape):
        return ungather(g, a, np.resize(positions_of(a), new_shape))


@rule(np.delete)
class delete:
    torch_name = "Index"
    linear = True
    nondiff = ("obj", "axis")

    def vjp_arr(g, ans, arr, obj, axis=None):
        return ungather(g, arr, np.delete(positions_of(arr), obj, axis=axis))


@rule(np.pad)
class pad:
    """Modes ``constant`` (``constant_values`` differentiable too), ``edge``, ``reflect``,
    ``symmetric`` and ``wrap``: every padded element is a constant or a copy. The modes that
    compute statistics or ramps, and ``reflect_type='odd'``, are refused."""

    torch_name = "ConstantPadNd"
    nondiff = ("pad_width", "mode", "stat_length", "end_values", "reflect_type")

    def vjp_array(g, ans, array, pad_width, mode="constant", stat_length=None,
                  constant_values=0, end_values=0, reflect_type="even"):
        return unpad(g, array, pad_width, mode=mode, reflect_type=reflect_type)

    def vjp_constant_values(g, ans, array, pad_width, mode="constant", stat_length=None,
                            constant_values=0, end_values=0, reflect_type="even"):
        return pad_fill_vjp(g, array, pad_width, constant_values)

    def jvp_array(t, ans, array, pad_width, mode="constant", stat_length=None,
                  constant_values=0, end_values=0, reflect_type="even"):
        return pad_tangent(t, pad_width, mode=mode, reflect_type=reflect_type)

    def jvp_constant_values(t, ans, array, pad_width, mode="constant", stat_length=None,
                            constant_values=0, end_values=0, reflect_type="even"):
        return np.pad(np.zeros(np.shape(array), dtype=np.result_type(t)), pad_width,
                      constant_values=t)


@rule(np.diff)
class diff:
    """``prepend`` and ``append`` (joined before differencing) are differentiable too."""

    torch_name = "Diff"
    nondiff = ("n", "axis")

    def vjp_a(g, ans, a, n=1, axis=-1, prepend=None, append=None):
        return diff_vjp(g, 1, a, n, axis, prepend, append)

    def vjp_prepend(g, ans, a, n=1, axis=-1, prepend=None, append=None):
        return diff_vjp(g, 0, a, n, axis, prepend, append)

    def vjp_append(g, ans, a, n=1, axis=-1, prepend=None, append=None):
        return diff_vjp(g, 2, a, n, axis, prepend, append)

    def jvp_a(t, ans, a, n=1, axis=-1, prepend=None, append=None):
        return diff_tangent(t, 1, a, n, axis, prepend, append)

    def jvp_prepend(t, ans, a, n=1, axis=-1, prepend=None, append=None):
        return diff_tangent(t, 0, a, n, axis, prepend, append)

    def jvp_append(t, ans, a, n=1, axis=-1, prepend=None, append=None):
        return diff_tangent(t, 2, a, n, axis, prepend, append)


@rule(np.gradient)
class gradient:
    """Linear in ``f`` for any spacing (numbers or coordinates) and edge order; one array,
    or a tuple with one per axis. A uniform spacing ``h`` is differentiable too (the result
    is proportional to ``1 / h``); coordinates are refused."""

    sequence_output = True
    torch_name = "Gradient"
    nondiff = ("axis", "edge_order")

    def vjp_f(g, ans, f, *varargs, axis=None, edge_order=1):
        return gradient_vjp(g, f, varargs, axis=axis, edge_order=edge_order)

    def vjp_varargs(g, ans, f, *varargs, axis=None, edge_order=1):
        return gradient_spacing_vjp(g, ans, f, varargs, axis=axis)

    def jvp_f(t, ans, f, *varargs, axis=None, edge_order=1):
        return gradient_tangent(t, varargs, axis=axis, edge_order=edge_order)

    def jvp_varargs(t, ans, f, *varargs, axis=None, edge_order=1):
        return gradient_spacing_jvp(t, ans, f, varargs, axis=axis)


@rule(np.cross)
class cross:
    """Of 3-vectors (along ``axisa``/``axisb``/``axisc``, or ``axis``), batch dimensions
    broadcast."""

    torch_name = "LinalgCross"
    nondiff = ("axisa", "axisb", "axisc", "axis")

    def vjp_a(g, ans, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
        return cross_vjp_a(g, a, b, axisa, axisb, axisc, axis)

    def vjp_b(g, ans, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
        return cross_vjp_b(g, a, b, axisa, axisb, axisc, axis)

    def jvp_a(t, ans, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
        return np.cross(t, b, axisa=axisa, axisb=axisb, axisc=axisc, axis=axis)

    def jvp_b(t, ans, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
        return np.cross(a, t, axisa=axisa, axisb=axisb, axisc=axisc, axis=axis)
