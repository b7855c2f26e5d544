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
    as_column,
    concatenate_c,
    concatenate_r,
    inverse_permutation,
    linspace_weights,
    reshape_each,
    split_back,
    unbroadcast,
    undiagonal,
    unrepeat,
    unstack_like,
    untake,
    untake_along_axis,
    untile,
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

    torch_name = "Stack"
    linear = True
    nondiff = ("dtype", "copy", "order", "subok", "ndmin")

    def vjp_object(g, ans, object, dtype=None, copy=True, order="K", subok=False, ndmin=0):
        return unstack_like(g, object)


@rule(np.asarray)
class asarray:
    torch_name = "Stack"
    linear = True
    nondiff = ("dtype", "order")

    def vjp_a(g, ans, a, dtype=None, order=None):
        return unstack_like(g, a)


@rule(np.copy)
class copy:
    torch_name = "Clone"
    linear = True
    nondiff = ("order", "subok")

    def vjp_a(g, ans, a, order="K", subok=False):
        return unstack_like(g, a)


@rule(np.real)
class real:
    """The real part; for real input (the case sourcegrad differentiates) the identity."""

    torch_name = "Real"
    linear = True

    def vjp_val(g, ans, val):
        return g


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
    torch_name = "Expand"
    linear = True
    nondiff = ("a", "dtype", "order", "subok", "shape")

    def vjp_fill_value(g, ans, a, fill_value, dtype=None, order="K", subok=True, shape=None):
        return unbroadcast(g, fill_value)


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
    linear = True

    def vjp_items(g, ans, items):
        return split_back(g, items, axis=0, promote=np.atleast_1d)


@rule(concatenate_c)
class concatenate_c_rule:
    """``np.c_[a, b, ...]``: numbers and 1-d items are columns, joined along the last axis."""

    torch_name = "Cat"
    linear = True

    def vjp_items(g, ans, items):
        return split_back(g, items, axis=-1, promote=as_column)


@rule(np.stack)
class stack:
    torch_name = "Stack"
    linear = True
    nondiff = ("axis", "out", "dtype", "casting")

    def vjp_arrays(g, ans, arrays, axis=0, out=None, dtype=None, casting="same_kind"):
        return list(np.moveaxis(g, axis, 0))


@rule(np.hstack)
class hstack:
    """Joins along axis 0 if the arrays are 1-D (after ``atleast_1d``), else along axis 1."""

    torch_name = "Cat"
    linear = True
    nondiff = ("dtype", "casting")

    def vjp_tup(g, ans, tup, dtype=None, casting="same_kind"):
        return split_back(g, tup, 0 if np.ndim(tup[0]) <= 1 else 1, np.atleast_1d)


@rule(np.vstack)
class vstack:
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
