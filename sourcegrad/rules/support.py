"""Helpers that derivative rules call, and so does the code generated from them.

This module is the whole runtime footprint of generated code: ``sourcegrad emit`` copies
these functions verbatim into the emitted file, so they depend on NumPy and nothing else.
Keep each one small, obvious and cheap when there is nothing to do (the common case of
matching shapes must cost one comparison).
"""

import numpy as np


def unbroadcast(g, x):
    """Sum ``g`` down to the shape of ``x``: the adjoint of NumPy's implicit broadcasting."""
    shape = getattr(x, "shape", None)
    if shape is None:
        shape = _shape(x)
    elif getattr(g, "shape", None) == shape:
        return g  # the common case, answered without another call
    if _shape(g) == shape:
        return g
    g = np.asarray(g)  # the array's own sum: np.sum's dispatch costs more than the sum
    extra = g.ndim - len(shape)
    if extra > 0:
        g = g.sum(axis=tuple(range(extra)))
    stretched = tuple([i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1])
    if stretched:
        g = g.sum(axis=stretched, keepdims=True)
    return g


def _shape(x):
    """``np.shape``, without its cost for Python numbers and arrays (the common cases)."""
    if isinstance(x, (list, tuple)):
        return np.shape(x)
    return getattr(x, "shape", ())


def broadcast_like(t, ans):
    """Broadcast a tangent ``t`` to the shape of the output ``ans``: forward mode's side of
    NumPy's implicit broadcasting, whose adjoint sums a cotangent back down."""
    if np.shape(t) == np.shape(ans):
        return t
    return np.broadcast_to(t, np.shape(ans))


def unreduce(g, x, axis=None, keepdims=False):
    """Spread the cotangent of a reduction over ``axis`` back over the shape of ``x``."""
    if axis is None:
        return _spread_scalar(g, x)
    shape = np.shape(x)
    if shape == ():  # NumPy reduces a 0-d value over axis 0 or -1 to itself
        return np.reshape(g, ())
    if not keepdims:
        g = np.expand_dims(g, axis)
    return np.broadcast_to(g, shape)


def _spread_scalar(g, x):
    """``np.broadcast_to(g, np.shape(x))`` for a one-element ``g``: a read-only view that
    repeats it, made without ``broadcast_to``'s generality (a full reduction's cotangent is
    the common case: the last operation of a loss). Its buffer is immutable ``bytes``, which
    makes the view read-only without a flags update. A Python number takes ``x``'s float
    dtype, as it would in NumPy's own arithmetic with ``x``."""
    shape = _shape(x)
    if type(g) is float:
        dtype = getattr(x, "dtype", None)
        g = np.asarray(g, dtype=dtype if dtype is not None and dtype.kind == "f" else None)
    else:
        g = np.asarray(g)
    if g.size != 1 or g.dtype.hasobject:
        return np.broadcast_to(g, shape)
    return np.ndarray(shape, g.dtype, g.tobytes(), 0, (0,) * len(shape))


def reduce_like(g, cotangent, axis=None, keepdims=False):
    """Sum ``g`` (shaped like ``unreduce``'s output) back to the shape of ``cotangent``:
    the adjoint of ``unreduce(cotangent, x, axis, keepdims)``, for second derivatives."""
    if np.ndim(g) == 0:  # a number reduced over an axis was itself: so is its cotangent
        return np.reshape(g, np.shape(cotangent))
    if axis is not None and not keepdims:
        return np.reshape(unbroadcast(g, np.expand_dims(cotangent, axis)), np.shape(cotangent))
    return unbroadcast(g, cotangent)


def reduced_count(x, ans):
    """How many elements of ``x`` were reduced into each element of ``ans``."""
    return _size(x) // max(_size(ans), 1)


def unit_tangents(x):
    """The one-hot tangents of the array or float ``x``, in C order (a Python float for a
    float): the directions ``sg.jacobian`` runs forward mode along."""
    units = []
    for index in np.ndindex(np.shape(x)):
        unit = np.zeros(np.shape(x))
        unit[index] = 1.0
        units.append(float(unit) if isinstance(x, float) else unit)
    return units


def degrees_of_freedom(x, ans, ddof=0):
    """``n - ddof`` for ``var``/``std`` reducing ``n`` elements of ``x`` into each element of
    ``ans``; nan where it is not positive: NumPy divides by ``max(n - ddof, 0)`` there, the
    value is inf or nan, and has no derivative."""
    count = reduced_count(x, ans) - ddof
    return count if count > 0 else np.nan


def one_if_single(value, x):
    """``value`` (a standard deviation of ``x``), or 1 where each of its elements reduces a
    single element of ``x``: it is then 0 whatever ``x`` is, and dividing by 1 keeps its
    derivative 0 rather than 0/0."""
    return value if reduced_count(x, value) > 1 else np.ones_like(value)


def _size(x):
    """``np.size``, without its cost for numbers, arrays, NumPy scalars and ``ShapeOf``."""
    if type(x) is float:
        return 1
    size = getattr(x, "size", None)
    return np.size(x) if size is None else size


def tie_weights(x, ans, axis=None, keepdims=False):
    """Weight of each element of ``x`` in the ``max``/``min`` ``ans`` over ``axis``: 1/k for
    each of the k elements that tie for the extreme, 0 elsewhere (PyTorch's ``amax``)."""
    ans_full = ans if keepdims or axis is None else np.expand_dims(ans, _axes(axis, np.ndim(x)))
    winners = x == ans_full
    count = np.sum(winners, axis=axis, keepdims=True, dtype=_grad_dtype(x))
    return winners / count


def spread_over_ties(g, x, ans, axis=None, keepdims=False):
    """Cotangent of ``max``/``min`` over ``axis``: shared evenly among the elements that tie
    for the extreme, as PyTorch's ``amax``/``amin`` do."""
    return unreduce(g, x, axis, keepdims) * tie_weights(x, ans, axis, keepdims)


def _grad_dtype(x):
    """The float dtype of ``x``'s gradient: its own if float or complex, float64 otherwise."""
    dtype = np.result_type(x)
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def _axes(axis, ndim):
    """``axis`` (None, an int or a tuple, negatives allowed) as a tuple of non-negative ints.
    A 0-d value has none: NumPy reduces it over axis 0 or -1 to itself."""
    if axis is None or ndim == 0:
        return tuple(range(ndim))
    return tuple([int(a) % ndim for a in np.atleast_1d(axis)])


def zeros_like_grad(x):
    """A zero gradient with ``x``'s structure (float, even for integer ``x``); ``None`` (the
    tangent of a ``None`` in a display, say) stays ``None``."""
    if x is None:
        return None
    if isinstance(x, (list, tuple)):  # a list even for a tuple: the adjoint assigns into it
        return [zeros_like_grad(v) for v in x]
    if isinstance(x, dict):
        return {k: zeros_like_grad(v) for k, v in x.items()}
    if isinstance(x, (float, int)) and not isinstance(x, bool):
        return 0.0
    if type(x) is not ShapeOf:
        x = np.asarray(x)
    return np.zeros(x.shape, dtype=x.dtype if x.dtype.kind in "fc" else np.float64)


def as_gradient(g, x):
    """The gradient returned to the user: ``x``'s structure, type and (float) dtype, and never
    a read-only broadcast view."""
    if type(g) is np.ndarray and type(x) is np.ndarray and g.dtype == x.dtype and (
        g.shape == x.shape and g.flags.writeable and g.base is None
    ):
        return g  # the common case: a fresh float array of the right shape
    if type(x) is float and type(g) in (float, np.float64):
        return float(g)  # the other common case: a float parameter (a bias, a step size)
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


def _as_matrices(g, x1, x2):
    """``g``, ``x1`` and ``x2`` with the dimensions ``np.matmul`` adds to 1-D operands (and
    removes from the result) put back, so that every case reads as stacked matrices."""
    if np.ndim(x2) == 1:
        g, x2 = np.expand_dims(g, -1), np.expand_dims(x2, -1)
    if np.ndim(x1) == 1:
        g, x1 = np.expand_dims(g, -2), np.expand_dims(x1, -2)
    return g, x1, x2


def matmul_vjp_x1(g, x1, x2):
    """Cotangent of ``x1`` in ``x1 @ x2``, for every combination of vector and stacked
    matrix operands that ``np.matmul`` accepts (batch dimensions broadcast)."""
    n1 = x1.ndim if type(x1) is np.ndarray else np.ndim(x1)
    n2 = x2.ndim if type(x2) is np.ndarray else np.ndim(x2)
    if n2 == 2 and n1 <= 2:  # matrix @ matrix, vector @ matrix
        return g @ (x2.T if type(x2) is np.ndarray else np.transpose(x2))
    if n2 == 1 and n1 == 2:
        return np.outer(g, x2)
    gm, x1m, x2m = _as_matrices(g, x1, x2)
    return np.reshape(unbroadcast(gm @ np.swapaxes(x2m, -1, -2), x1m), np.shape(x1))


def matmul_vjp_x2(g, x1, x2):
    """Cotangent of ``x2`` in ``x1 @ x2``, for every combination of vector and stacked
    matrix operands that ``np.matmul`` accepts (batch dimensions broadcast)."""
    n1 = x1.ndim if type(x1) is np.ndarray else np.ndim(x1)
    n2 = x2.ndim if type(x2) is np.ndarray else np.ndim(x2)
    if n1 == 2 and n2 <= 2:  # matrix @ matrix, matrix @ vector
        return (x1.T if type(x1) is np.ndarray else np.transpose(x1)) @ g
    if n1 == 1 and n2 == 2:
        return np.outer(x1, g)
    gm, x1m, x2m = _as_matrices(g, x1, x2)
    return np.reshape(unbroadcast(np.swapaxes(x1m, -1, -2) @ gm, x2m), np.shape(x2))


def private_copy(g):
    """A copy the generated code owns, so that it can update it in place (a gradient, a
    stack of saved values, an array whose elements the backward sweep restores)."""
    if isinstance(g, (list, tuple)):
        return list(g)
    if isinstance(g, dict):
        return dict(g)
    return np.array(g, copy=True)


class ShapeOf:
    """What generated code keeps of an array whose elements the backward sweep never reads
    (it only asks for its shape, to sum or spread a cotangent to it): shape and dtype, so
    that the elements can be freed as soon as the forward sweep is done with them."""

    __slots__ = ("dtype", "shape")

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        size = 1
        for n in self.shape:
            size *= n
        return size

    def __array__(self, *args, **kwargs):
        raise TypeError(f"only the shape {self.shape} of this array was kept; this is a bug "
                        "in sourcegrad, please report it with the function differentiated")


def shape_only(x):
    """``x``'s ``ShapeOf`` for an array; anything else (a number, a list) stays as it is."""
    return ShapeOf(x.shape, x.dtype) if type(x) is np.ndarray else x


def shape_of_elementwise(*operands):
    """The ``ShapeOf`` of an elementwise arithmetic result of ``operands`` (arrays, numbers,
    ``ShapeOf``s), worked out without computing it: the broadcast shape, and the dtype
    NumPy's promotion gives (Python numbers are weak, as in the arithmetic itself). Only
    the gradient's dtype is read from it, so an integer division's integer dtype here (its
    result is float64) gives the same float64 gradient. Cheaper than the arithmetic on a
    thousand elements: ``np.broadcast_shapes`` and ``np.result_type`` only when needed."""
    # a Python number of this type leaves an array of these dtype kinds its dtype
    absorbed_by = {bool: "biufc", int: "iufc", float: "fc", complex: "c"}
    shape = dtype = None
    numbers = []
    for x in operands:
        if type(x) in absorbed_by:
            numbers.append(x)
            continue
        if type(x) is not np.ndarray and type(x) is not ShapeOf:
            x = np.asarray(x)
        if shape is None:
            shape, dtype = x.shape, x.dtype
            continue
        if x.shape != shape:
            shape = np.broadcast_shapes(shape, x.shape)
        if x.dtype != dtype:
            dtype = np.result_type(dtype, x.dtype)
    if dtype is None:
        return ShapeOf((), np.result_type(*numbers))
    for number in numbers:
        if dtype.kind not in absorbed_by[type(number)]:
            dtype = np.result_type(dtype, number)
    return ShapeOf(shape, dtype)


def add_grads(a, b):
    """``a + b`` for gradients that may be lists, tuples or dicts of arrays."""
    if isinstance(a, dict):
        return {k: add_grads(a[k], b[k]) if k in b else a[k] for k in a}
    if isinstance(a, (list, tuple)):
        return [add_grads(x, y) for x, y in zip(a, b, strict=True)]
    return a + b


def scalar_seed(value):
    """The cotangent 1 of a real scalar output (a float, or an integer: its derivative is
    0); ``sg.grad`` of anything else (a complex number, a bool, a string, ``None``, an
    array of more than one element) is a ``TypeError`` naming what it got, as in JAX."""
    if type(value) is float:
        return 1.0
    if isinstance(value, np.floating):
        return value.dtype.type(1.0)
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return 1.0
    dtype = getattr(value, "dtype", None)
    if isinstance(dtype, np.dtype) and dtype.kind in "fiu" and np.size(value) == 1:
        return np.ones_like(value, dtype=np.result_type(dtype, 1.0))
    raise TypeError(f"sg.grad needs a function that returns a scalar (a real floating-point "
                    f"number), as jax.grad does; it returned {_described(value)}. "
                    f"{_output_advice(value)}")


def _described(value):
    if value is None or isinstance(value, (bool, np.bool_)):
        return repr(value)
    if isinstance(value, (str, bytes)):
        return f"the {type(value).__name__} {value[:40]!r}"
    dtype = getattr(value, "dtype", None)
    if isinstance(dtype, np.dtype) and np.ndim(value) > 0:
        return f"an array of dtype {dtype} and shape {np.shape(value)}"
    if isinstance(dtype, np.dtype) or isinstance(value, complex):
        return f"a {type(value).__name__} ({value!r})"
    if isinstance(value, (list, tuple, dict)):
        return f"a {type(value).__name__} of {len(value)} elements"
    return f"a {type(value).__name__}"


def _output_advice(value):
    if np.iscomplexobj(value) and not isinstance(value, (str, bytes)):
        return ("sourcegrad differentiates real-valued outputs: return a real part, a "
                "modulus or a squared modulus (np.real, np.abs, np.abs(z) ** 2).")
    if np.size(value) > 1 and getattr(value, "dtype", np.dtype(bool)).kind in "fiuc":
        return "Use sg.vjp or sg.jacobian for non-scalar outputs."
    return "Return the number to differentiate."


# ---------------------------------------------------------------- elementwise and reductions


def lower_bound(a_min):
    """``np.clip``'s lower bound, ``None`` read as -inf so that masks compare uniformly."""
    return -np.inf if a_min is None else a_min


def upper_bound(a_max):
    """``np.clip``'s upper bound, ``None`` read as +inf."""
    return np.inf if a_max is None else a_max


def sinc_derivative(x, ans):
    """d sinc(x)/dx = (cos(pi x) - sinc(x)) / x, whose limit at x = 0 is 0."""
    nonzero = x != 0
    return np.where(nonzero, np.cos(np.pi * x) - ans, 0) / np.where(nonzero, x, 1)


def product_of_others(a, axis=None):
    """For each element of ``a``, the product of the *other* elements reduced with it over
    ``axis``: the derivative of ``np.prod``. Computed from exclusive cumulative products, not
    by dividing ``prod`` by the element, so zeros in ``a`` give exact results."""
    a = np.asarray(a)
    axes = _axes(axis, a.ndim)
    ends = tuple(range(a.ndim - len(axes), a.ndim))
    moved = np.moveaxis(a, axes, ends)
    kept = moved.shape[: a.ndim - len(axes)]
    flat = moved.reshape(kept + (int(np.prod(moved.shape[len(kept):])),))
    ones = np.ones_like(flat[..., :1])
    before = np.cumprod(np.concatenate([ones, flat[..., :-1]], axis=-1), axis=-1)
    after = np.cumprod(np.concatenate([ones, flat[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
    return np.moveaxis((before * after).reshape(moved.shape), ends, axes)


def _cumprod_jacobian(a, axis):
    """``J[..., i, j] = d cumprod(a)[j] / d a[i]`` along ``axis`` (moved last), built without
    division: the products of ``a[:j+1]`` with ``a[i]`` replaced by 1, for ``j >= i``."""
    a = np.moveaxis(a, axis, -1)
    n = a.shape[-1]
    others = np.where(np.eye(n, dtype=bool), 1, np.expand_dims(a, -2))
    return np.cumprod(others, axis=-1) * np.triu(np.ones((n, n), dtype=bool))


def cumprod_vjp(g, a, ans, axis=None):
    """Cotangent of ``a`` in ``np.cumprod(a, axis)``. Where ``a`` has no zero this is a
    reversed cumulative sum of ``g * ans`` divided by ``a``; with zeros it uses the exact
    Jacobian (quadratic in the length of ``axis``)."""
    shape = np.shape(a)
    if axis is None or not shape:  # NumPy accumulates a number as a one-element array
        a, axis = np.ravel(a), 0
    if np.all(a != 0):
        grad = np.flip(np.cumsum(np.flip(g * ans, axis), axis), axis) / a
    else:
        jacobian = _cumprod_jacobian(a, axis)
        grad = np.moveaxis(np.einsum("...ij,...j->...i", jacobian, np.moveaxis(g, axis, -1)),
                           -1, axis)
    return np.reshape(grad, shape)


def cumprod_jvp(t, a, ans, axis=None):
    """Tangent of ``np.cumprod(a, axis)`` for the tangent ``t`` of ``a`` (see
    ``cumprod_vjp``)."""
    if axis is None or np.ndim(a) == 0:  # (see ``cumprod_vjp``)
        a, t, axis = np.ravel(a), np.ravel(t), 0
    if np.all(a != 0):
        return np.cumsum(t / a, axis) * ans
    jacobian = _cumprod_jacobian(a, axis)
    return np.moveaxis(np.einsum("...ij,...i->...j", jacobian, np.moveaxis(t, axis, -1)),
                       -1, axis)


# ----------------------------------------------------------------------------------- shapes


def inverse_permutation(a, axes=None):
    """The axes that undo ``np.transpose(a, axes)`` (``None``, the reversal, undoes itself)."""
    if axes is None:
        return None
    return tuple(int(i) for i in np.argsort([ax % np.ndim(a) for ax in axes]))


def untile(g, a, reps):
    """Cotangent of ``a`` in ``np.tile(a, reps)``: the sum of ``g`` over all the copies."""
    reps = tuple(np.atleast_1d(reps))
    ndim = max(np.ndim(a), len(reps))
    shape = (1,) * (ndim - np.ndim(a)) + np.shape(a)
    reps = (1,) * (ndim - len(reps)) + reps
    copies_then_entries = [n for pair in zip(reps, shape, strict=True) for n in pair]
    summed = np.sum(np.reshape(g, copies_then_entries), axis=tuple(range(0, 2 * ndim, 2)))
    return np.reshape(summed, np.shape(a))


def unrepeat(g, a, repeats, axis=None):
    """Cotangent of ``a`` in ``np.repeat(a, repeats, axis)``: each element collects the sum
    of the cotangents of its copies."""
    shape = np.shape(a)
    if axis is None:
        shape, axis = (int(np.prod(shape)),), 0
    axis = axis % len(shape)
    owner = np.repeat(np.arange(shape[axis]), np.broadcast_to(repeats, (shape[axis],)))
    grad = np.zeros(shape, dtype=_grad_dtype(g))
    np.add.at(np.moveaxis(grad, axis, 0), owner, np.moveaxis(g, axis, 0))
    return np.reshape(grad, np.shape(a))


def split_back(g, arrays, axis=0, promote=None):
    """Cut ``g`` into the cotangents of the ``arrays`` joined along ``axis`` (by
    ``concatenate``, ``hstack``, ``vstack``), each with its array's shape. ``promote`` is
    what the joining function applied to each array first (``np.atleast_2d`` for ``vstack``);
    ``axis=None`` means the arrays were flattened."""
    joined = [np.ravel(x) if axis is None else (promote or np.asarray)(x) for x in arrays]
    axis = 0 if axis is None else axis
    ends = np.cumsum([np.shape(x)[axis] for x in joined])
    pieces = np.split(g, ends[:-1], axis=axis)
    return [np.reshape(p, np.shape(x)) for p, x in zip(pieces, arrays, strict=True)]


def last_writes(part, base, index):
    """``part`` (a cotangent read at ``base[index]``) where its element was the last write
    into its place, zero where a later repeat of the same place overwrote it: NumPy keeps the
    last of repeated writes ``base[index] = value`` (and ``+=`` adds only the last value).
    NumPy's own assignment decides which write is last, for every kind of index. (An index
    that cannot repeat an element, known only now, costs a copy.)"""
    if _selects_once(index):
        return np.copy(part) if isinstance(part, np.ndarray) else part
    order = np.reshape(np.arange(np.size(part)), np.shape(part))
    stamp = np.full(np.shape(base), -1)
    stamp[index] = order
    return np.where(stamp[index] == order, part, np.zeros((), dtype=np.result_type(part)))


def _selects_once(index):
    """Is ``index`` basic (integers, slices, ``None``, ``...``), selecting each element at
    most once?"""
    if isinstance(index, tuple):
        return all(_selects_once(i) for i in index)
    return index is None or index is Ellipsis or isinstance(index, (int, np.integer, slice)) and (
        not isinstance(index, bool))


def concatenate_r(items):
    """``np.r_[a, b, ...]`` as a function of the sequence of its items (a subscript cannot be
    called): the primitive that ``np.r_``'s rule is registered under. Each item, at least
    1-d, joined along axis 0."""
    return np.r_[tuple(items)]


def concatenate_c(items):
    """``np.c_[a, b, ...]`` as a function of the sequence of its items: each item at least
    2-d (a 0-d or 1-d one as a column, see ``as_column``), joined along the last axis."""
    return np.c_[tuple(items)]


def as_column(x):
    """One item as ``np.c_`` takes it: a number or a 1-d array becomes a column, an array of
    2 or more dimensions stays as it is."""
    return np.c_[(x,)]


def join_back(pieces, arrays, axis=0, promote=None):
    """The adjoint of ``split_back``: the pieces (one per array) joined the way ``arrays``
    were, for second derivatives of ``concatenate``, ``hstack`` and ``vstack``."""
    joined = [np.ravel(p) if axis is None else (promote or np.asarray)(p) for p in pieces]
    return np.concatenate(joined, axis=0 if axis is None else axis)


def reshape_each(parts, like):
    """``parts`` reshaped one by one to the shapes of ``like``'s entries, in ``like``'s
    structure: a tuple when ``like`` is a sequence, one array when it is one array (``parts``
    is a sequence, or one array standing for a sequence of one). ``None`` parts are zeros and
    ``None`` entries of ``like`` give ``None``, so that it is its own adjoint: the cotangents
    of ``parts`` are ``reshape_each(g, parts)``. The cotangents of ``np.atleast_1d(*arrays)``
    (and 2d, 3d) are ``reshape_each(g, arrays)``, its tangent ``reshape_each(t, ans)``."""
    if not isinstance(parts, (list, tuple)):
        parts = [parts]
    likes = like if isinstance(like, (list, tuple)) else [like]
    shaped = [_reshape_or_zeros(p, x) for p, x in zip(parts, likes, strict=True)]
    return tuple(shaped) if isinstance(like, (list, tuple)) else shaped[0]


def _reshape_or_zeros(part, like):
    if like is None:
        return None
    if part is None:
        return zeros_like_grad(like)
    return np.reshape(part, np.shape(like))


def unstack_like(g, obj):
    """Cotangent of ``obj`` in ``np.array(obj)``: ``g`` cut back into ``obj``'s nesting of
    lists and tuples, each leaf with its own shape."""
    if isinstance(obj, (list, tuple)):
        return type(obj)(unstack_like(gi, oi) for gi, oi in zip(g, obj, strict=True))
    return np.reshape(g, np.shape(obj))


def _scatter_add(g, shape, index):
    """A zero array of ``shape`` into which ``g`` is added at ``index`` (repeats add up)."""
    grad = np.zeros(shape, dtype=_grad_dtype(g))
    np.add.at(grad, index, g)
    return grad


def untake(g, a, indices, axis=None, mode="raise"):
    """Cotangent of ``a`` in ``np.take(a, indices, axis, mode=mode)``: ``g`` added back at
    the positions taken (several times if an index repeats)."""
    shape = np.shape(a)
    if axis is None:
        shape, axis = (int(np.prod(shape)),), 0
    axis = axis % len(shape)
    indices = np.asarray(indices)
    if mode == "wrap":
        indices = indices % shape[axis]
    elif mode == "clip":
        indices = np.clip(indices, 0, shape[axis] - 1)
    g = np.moveaxis(g, tuple(range(axis, axis + indices.ndim)), tuple(range(indices.ndim)))
    moved = (shape[axis], *shape[:axis], *shape[axis + 1:])
    grad = np.moveaxis(_scatter_add(g, moved, indices), 0, axis)
    return np.reshape(grad, np.shape(a))


def untake_along_axis(g, arr, indices, axis=-1):
    """Cotangent of ``arr`` in ``np.take_along_axis(arr, indices, axis)``; with ``argsort``
    indices this routes the cotangent of ``np.sort`` back through the permutation."""
    if axis is None:
        return np.reshape(untake_along_axis(g, np.ravel(arr), np.ravel(indices), 0),
                          np.shape(arr))
    shape = np.shape(arr)
    axis = axis % len(shape)
    grid = list(np.indices(np.shape(g), sparse=True))
    index = tuple(
        indices if d == axis else (grid[d] if shape[d] != 1 else 0) for d in range(len(shape))
    )
    return _scatter_add(g, shape, index)


def undiagonal(g, a, offset=0, axis1=0, axis2=1):
    """Cotangent of ``a`` in ``np.diagonal(a, offset, axis1, axis2)``: ``g`` (whose last
    axis runs along the diagonal, or has length 1 to fill it) written onto that diagonal of a
    zero array."""
    grad = np.zeros(np.shape(a), dtype=_grad_dtype(g))
    view = np.moveaxis(grad, (axis1, axis2), (-2, -1))
    length = max(0, min(view.shape[-2] + min(offset, 0), view.shape[-1] - max(offset, 0)))
    steps = np.arange(length)
    view[..., steps - min(offset, 0), steps + max(offset, 0)] = g
    return grad


# ---------------------------------------------------------------------- products and linalg


def _tensordot_axes(axes, ndim_a, ndim_b):
    """``np.tensordot``'s ``axes`` as two lists of non-negative axes of ``a`` and ``b``."""
    if np.ndim(axes) == 0:
        return list(range(ndim_a - axes, ndim_a)), list(range(axes))
    axes_a, axes_b = (np.atleast_1d(ax) for ax in axes)
    return [int(i) % ndim_a for i in axes_a], [int(i) % ndim_b for i in axes_b]


def tensordot_vjp_a(g, a, b, axes=2):
    """Cotangent of ``a`` in ``np.tensordot(a, b, axes)``: ``g`` contracted with ``b`` over
    ``b``'s free axes, then put back in ``a``'s axis order."""
    axes_a, axes_b = _tensordot_axes(axes, np.ndim(a), np.ndim(b))
    free_a = [i for i in range(np.ndim(a)) if i not in axes_a]
    free_b = [i for i in range(np.ndim(b)) if i not in axes_b]
    g_free_b = list(range(len(free_a), np.ndim(g)))
    grad = np.tensordot(g, b, axes=(g_free_b, free_b))
    # grad's axes: a's free axes, then b's contracted axes in ascending order, each standing
    # for the axis of a it was contracted with
    paired = [axes_a[axes_b.index(k)] for k in sorted(axes_b)]
    return np.transpose(grad, np.argsort(free_a + paired))


def tensordot_vjp_b(g, a, b, axes=2):
    """Cotangent of ``b`` in ``np.tensordot(a, b, axes)`` (see ``tensordot_vjp_a``)."""
    axes_a, axes_b = _tensordot_axes(axes, np.ndim(a), np.ndim(b))
    free_a = [i for i in range(np.ndim(a)) if i not in axes_a]
    g_free_a = list(range(len(free_a)))
    grad = np.tensordot(a, g, axes=(free_a, g_free_a))
    free_b = [i for i in range(np.ndim(b)) if i not in axes_b]
    paired = [axes_b[axes_a.index(k)] for k in sorted(axes_a)]
    return np.transpose(grad, np.argsort(paired + free_b))


def dot_axes(a, b):
    """``np.dot(a, b)`` as ``np.tensordot(a, b, dot_axes(a, b))``: the last axis of ``a``
    against the second-to-last of ``b`` (its only one if 1-D); none for a scalar."""
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return 0
    return [np.ndim(a) - 1], [max(np.ndim(b) - 2, 0)]


def inner_axes(a, b):
    """``np.inner(a, b)`` as ``np.tensordot(a, b, inner_axes(a, b))``: last axes together."""
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return 0
    return [np.ndim(a) - 1], [np.ndim(b) - 1]


def _kron_grids(g, a, b):
    """``g``, ``a`` and ``b`` laid out on the interleaved axes ``(a0, b0, a1, b1, ...)`` of
    the Kronecker product (the shorter shape padded with leading 1s, as ``np.kron`` does), so
    that ``g``'s blocks line up with ``a``'s entries and ``b``'s."""
    ndim = max(np.ndim(a), np.ndim(b))
    shape_a = (1,) * (ndim - np.ndim(a)) + np.shape(a)
    shape_b = (1,) * (ndim - np.ndim(b)) + np.shape(b)
    a_grid = np.reshape(a, [n for m in shape_a for n in (m, 1)])
    b_grid = np.reshape(b, [n for m in shape_b for n in (1, m)])
    blocks = np.reshape(g, [n for m, k in zip(shape_a, shape_b, strict=True) for n in (m, k)])
    return blocks, a_grid, b_grid


def kron_vjp_a(g, a, b):
    """Cotangent of ``a`` in ``np.kron(a, b)``: each block of ``g`` contracted with ``b``."""
    blocks, _, b_grid = _kron_grids(g, a, b)
    b_axes = tuple(range(1, blocks.ndim, 2))
    return np.reshape(np.sum(blocks * b_grid, axis=b_axes), np.shape(a))


def kron_vjp_b(g, a, b):
    """Cotangent of ``b`` in ``np.kron(a, b)``: the blocks of ``g`` weighted by ``a``."""
    blocks, a_grid, _ = _kron_grids(g, a, b)
    a_axes = tuple(range(0, blocks.ndim, 2))
    return np.reshape(np.sum(blocks * a_grid, axis=a_axes), np.shape(b))


_EINSUM_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _einsum_call(subscripts, operands):
    """A call ``np.einsum(subscripts, *operands)`` in the subscripts-string form: the string,
    the operand arrays, and the position of each among the call's arguments (0 is
    ``subscripts`` itself, the first operand of the interleaved form ``np.einsum(a, [0, 1],
    b, [1, 2], [0, 2])``; a sublist's integers are letters, ``...`` is ``Ellipsis``)."""
    if isinstance(subscripts, str):
        return subscripts, list(operands), list(range(1, len(operands) + 1))
    args = [subscripts, *operands]
    end = len(args) // 2 * 2
    spelled = ",".join(_einsum_letters(sublist) for sublist in args[1:end:2])
    if len(args) % 2:
        spelled += "->" + _einsum_letters(args[-1])
    return spelled, args[0:end:2], list(range(0, end, 2))


def _einsum_letters(sublist):
    return "".join("..." if label is Ellipsis else _EINSUM_LETTERS[label] for label in sublist)


def _einsum_parse(subscripts, operands):
    """Explicit subscripts (one string per operand, and the output's) with ``...`` spelled
    out as letters the user did not use."""
    subscripts = subscripts.replace(" ", "")
    inputs, arrow, output = subscripts.partition("->")
    terms = inputs.split(",")
    spare = [c for c in _EINSUM_LETTERS if c not in subscripts]
    n_ellipsis = max([np.ndim(x) - len(t) + 3 for t, x in zip(terms, operands, strict=True)
                      if "..." in t], default=0)
    ellipsis = "".join(spare[:n_ellipsis])

    def spell_out(term, x):
        # an operand's ``...`` stands for its own trailing share of the broadcast dimensions
        n = np.ndim(x) - len(term) + 3
        return term.replace("...", ellipsis[n_ellipsis - n:])

    terms = [spell_out(t, x) if "..." in t else t for t, x in zip(terms, operands, strict=True)]
    if not arrow:
        letters = "".join(terms)
        output = ellipsis + "".join(sorted(c for c in set(letters) if letters.count(c) == 1
                                           and c not in ellipsis))
    else:
        output = output.replace("...", ellipsis)
    return terms, output


def _einsum_vjp_one(g, terms, output, operands, k):
    """Cotangent of ``operands[k]``: an einsum of ``g`` with the other operands onto the
    distinct letters of term ``k``, then spread over repeated letters (diagonals) and summed
    over broadcast axes."""
    term, x = terms[k], operands[k]
    sizes = {c: n for t, op in zip(terms, operands, strict=True)
             for c, n in zip(t, np.shape(op), strict=True) if n != 1}
    distinct = "".join(dict.fromkeys(term))
    others = [(t, op) for i, (t, op) in enumerate(zip(terms, operands, strict=True)) if i != k]
    present = set(output).union(*[set(t) for t, _ in others])
    ones = [(c, np.ones(sizes.get(c, 1), dtype=_grad_dtype(g))) for c in distinct
            if c not in present]
    parts = [(output, g), *others, *ones]
    grad = np.einsum(",".join(t for t, _ in parts) + "->" + distinct, *[op for _, op in parts])
    spare = iter(c for c in _EINSUM_LETTERS if c not in "".join(terms) + output)
    spread, deltas = "", []
    for i, c in enumerate(term):
        if c in term[:i]:
            new = next(spare)
            spread += new
            deltas.append((c + new, np.eye(sizes.get(c, 1), dtype=bool)))
        else:
            spread += c
    if deltas:
        grad = np.einsum(",".join([distinct] + [t for t, _ in deltas]) + "->" + spread,
                         grad, *[d for _, d in deltas])
    stretched = tuple(i for i, n in enumerate(np.shape(x)) if n == 1 and grad.shape[i] != 1)
    return np.sum(grad, axis=stretched, keepdims=True) if stretched else grad


def einsum_positions(subscripts, operands):
    """Where the arrays are among ``np.einsum(subscripts, *operands)``'s arguments: ``k`` for
    ``operands[k]``, ``-1`` for ``subscripts`` (the first operand of the interleaved form,
    whose sublists are not arrays)."""
    if isinstance(subscripts, str):
        return list(range(len(operands)))
    return list(range(-1, (len(operands) + 1) // 2 * 2 - 1, 2))


def einsum_vjp_one(g, subscripts, operands, k):
    """Cotangent of ``operands[k]`` in ``np.einsum(subscripts, *operands)``, or, for
    ``k = -1``, of ``subscripts`` (an operand in the interleaved form); a zero for a
    subscripts string or a sublist, which carry none. (It and ``einsum_jvp`` have rules of
    their own, built from ``einsum_cross``: the einsum is linear in each operand, so every
    second derivative is an einsum again.)"""
    spelled, arrays, where = _einsum_call(subscripts, operands)
    if k + 1 not in where:
        return zeros_like_grad(subscripts if k == -1 else operands[k])
    terms, output = _einsum_parse(spelled, arrays)
    return _einsum_vjp_one(g, terms, output, arrays, where.index(k + 1))


def einsum_jvp(t, subscripts, operands, first=None):
    """Tangent of ``np.einsum(subscripts, *operands)``: the sum over operands of the einsum
    with that operand replaced by its tangent, ``t`` holding one per operand and ``first``
    the tangent of ``subscripts`` when it is an operand (interleaved form); ``None`` (or
    ``t`` itself ``None``) is zero."""
    terms = [np.einsum(subscripts, *_replaced(operands, k, t[k]))
             for k in einsum_positions(subscripts, operands)
             if k >= 0 and t is not None and t[k] is not None]
    if first is not None:
        terms.append(np.einsum(first, *operands))
    return sum(terms)


def _replaced(operands, k, value):
    return [value if i == k else x for i, x in enumerate(operands)]


def einsum_cross(g, subscripts, operands, replacements, j, first=None):
    """The sum over the operands other than ``j`` (numbered as in ``einsum_vjp_one``) of the
    cotangent of operand ``j`` in the einsum with that operand replaced by its entry of
    ``replacements`` (one per operand, or ``None``; ``first`` replaces ``subscripts``;
    ``None``: zero): the mixed second derivative of ``<g, einsum(...)>``, applied to the
    replacements. It is the derivative in the operands of ``einsum_vjp_one`` and of
    ``einsum_jvp`` (for the cotangent ``g``), and its adjoint. (Forward mode reads its
    source: it keeps to what sourcegrad differentiates.)"""
    where = einsum_positions(subscripts, operands)
    if j == -1:
        total = zeros_like_grad(subscripts)
    else:
        total = zeros_like_grad(operands[j])
    for k in where:
        if k == j or j not in where:
            continue
        if k == -1:
            if first is not None:
                total = total + einsum_vjp_one(g, first, operands, j)
        elif replacements is not None:
            if replacements[k] is not None:
                total = total + einsum_vjp_one(g, subscripts,
                                               _replaced(operands, k, replacements[k]), j)
    return total


def einsum_jvp_cross(t, subscripts, operands, tangents, ans, t_first=None, first=None):
    """The sum over pairs of distinct operands ``k``, ``j`` of the einsum with operand ``k``
    replaced by its entry of ``t`` and operand ``j`` by its entry of ``tangents`` (each one
    per operand or ``None``; ``t_first`` and ``first`` are the entries of ``subscripts``
    when it is an operand; ``None``: zero): the derivative of ``ans = einsum_jvp(t,
    subscripts, operands, t_first)`` in the operands, along ``tangents`` and ``first``."""
    total = zeros_like_grad(ans)
    for k in einsum_positions(subscripts, operands):
        if k == -1:
            if t_first is not None:
                total = total + einsum_jvp(tangents, t_first, operands)
            continue
        if t is None or t[k] is None:
            continue
        others = None
        if tangents is not None:
            others = [None if j == k else d for j, d in enumerate(tangents)]
        moved = _replaced(operands, k, t[k])
        if first is not None or (others is not None and any(
                [others[j] is not None for j in einsum_positions(subscripts, operands)
                 if j >= 0])):
            total = total + einsum_jvp(others, subscripts, moved, first=first)
    return total


def _transpose(x):
    """Swap the last two axes (the matrix transpose of a stack of matrices)."""
    return np.swapaxes(x, -1, -2)


def _symmetric_part(x):
    return (x + _transpose(x)) / 2


def solve_vjp_b(g, a, b):
    """Cotangent of ``b`` in ``np.linalg.solve(a, b)``: ``solve(a.T, g)``, with NumPy 2's
    rule that ``b`` is a vector exactly when it is 1-D, batch dimensions summed back."""
    if np.ndim(b) == 1:
        return unbroadcast(np.linalg.solve(_transpose(a), g[..., None])[..., 0], b)
    return unbroadcast(np.linalg.solve(_transpose(a), g), b)


def solve_vjp_a(g, a, b, ans):
    """Cotangent of ``a`` in ``x = np.linalg.solve(a, b)``: ``-solve(a.T, g) @ x.T``."""
    vector = np.ndim(b) == 1
    g_b = np.linalg.solve(_transpose(a), g[..., None] if vector else g)
    x = ans[..., None] if vector else ans
    return unbroadcast(-(g_b @ _transpose(x)), a)


def solve_jvp_a(t, a, b, ans):
    """Tangent of ``x = np.linalg.solve(a, b)`` for the tangent ``t`` of ``a``:
    ``-solve(a, t @ x)``."""
    if np.ndim(b) == 1:
        return -np.linalg.solve(a, t @ ans[..., None])[..., 0]
    return -np.linalg.solve(a, t @ ans)


def _tie_mask(values, extreme):
    """1/k on each of the k entries of ``values`` equal to ``extreme``, 0 elsewhere."""
    winners = values == extreme
    return winners / np.sum(winners, axis=-1, keepdims=True, dtype=_grad_dtype(values))


def _vector_norm_derivative(x, norm, ord, axes):
    """d norm(x, ord) / dx for vector norms over ``axes``, where ``norm`` keeps the reduced
    dimensions. At a zero vector the derivative is taken as 0 (as PyTorch does); the inf
    norms share it evenly among tied entries."""
    safe = np.where(norm == 0, 1, norm)
    if ord is None or ord == 2:
        return x / safe
    if ord == 0:
        return np.zeros_like(x)
    if ord == 1:
        return np.sign(x)
    if ord in (np.inf, -np.inf):
        winners = np.abs(x) == norm
        count = np.sum(winners, axis=axes, keepdims=True, dtype=_grad_dtype(x))
        return np.sign(x) * winners / count
    return np.sign(x) * (np.abs(x) / safe) ** (ord - 1)


def spectral_norm_derivative(x, ord):
    """d norm(x, ord) / dx for the norms of the singular values of the matrices in the last
    two axes of ``x`` (``ord`` 'nuc', 2 or -2): ``u @ vh`` over the singular vectors involved.
    Separate so that it can have a rule of its own (``np.linalg.svd`` has none)."""
    u, _, vh = np.linalg.svd(x, full_matrices=False)
    if ord == "nuc":
        return u @ vh
    k = 0 if ord == 2 else -1
    return u[..., :, k:k + 1 or None] @ vh[..., k:k + 1 or None, :]


def spectral_norm_curvature(t, x, ord):
    """The derivative of ``spectral_norm_derivative(x, ord)`` along ``t``: the norm's Hessian
    applied to ``t``, which is self-adjoint, so also the VJP. From the derivatives of the
    SVD ``x = u diag(s) vh`` (singular values distinct and nonzero): with ``a = u.T t v``,
    ``d(u vh) = u [(a - a.T) / (s_i + s_j)] vh`` plus the parts of ``t`` outside the
    singular subspaces, and for one singular pair ``(u_i, v_i)``
    ``du_i = sum_j u_j (s_i a_ji + s_j a_ij) / (s_i^2 - s_j^2) + (I - u u.T) t v_i / s_i``
    (``dv_i`` likewise, with ``t.T``)."""
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    v = _transpose(vh)
    ut = _transpose(u) @ t
    a = ut @ v
    outside_u = t - u @ ut  # (I - u u.T) t
    outside_v = _transpose(t) - v @ (vh @ _transpose(t))  # (I - v v.T) t.T
    if ord == "nuc":
        core = (a - _transpose(a)) / (s[..., :, None] + s[..., None, :])
        return (u @ core @ vh + outside_u @ (v / s[..., None, :]) @ vh
                + (u / s[..., None, :]) @ _transpose(outside_v @ u))
    i = 0 if ord == 2 else np.shape(s)[-1] - 1
    s_i = s[..., i:i + 1]
    a_ji, a_ij = a[..., :, i], a[..., i, :]
    other = np.arange(np.shape(s)[-1]) != i
    gaps = np.where(other, s_i ** 2 - s ** 2, 1)
    du = (u @ np.where(other, (s_i * a_ji + s * a_ij) / gaps, 0)[..., None]
          + outside_u @ v[..., :, i:i + 1] / s_i[..., None])
    dv = (v @ np.where(other, (s * a_ji + s_i * a_ij) / gaps, 0)[..., None]
          + outside_v @ u[..., :, i:i + 1] / s_i[..., None])
    return du @ vh[..., i:i + 1, :] + u[..., :, i:i + 1] @ _transpose(dv)


def _matrix_norm_derivative(x, ord):
    """d norm(x, ord) / dx for matrix norms over the last two axes of ``x``."""
    if ord in ("nuc", 2, -2):
        return spectral_norm_derivative(x, ord)
    if ord in (1, -1, np.inf, -np.inf):
        over_rows = ord in (np.inf, -np.inf)
        sums = np.sum(np.abs(x), axis=-1 if over_rows else -2)
        if ord > 0:
            extreme = np.max(sums, axis=-1, keepdims=True)
        else:
            extreme = np.min(sums, axis=-1, keepdims=True)
        weights = _tie_mask(sums, extreme)
        return np.sign(x) * (weights[..., :, None] if over_rows else weights[..., None, :])
    raise ValueError(f"invalid norm order {ord!r} for matrices")


def norm_derivative(x, ans, ord=None, axis=None):
    """d ``np.linalg.norm(x, ord, axis)`` / dx, with ``x``'s shape, for every vector and
    matrix norm NumPy computes; ``ans`` is the norm (with or without kept dimensions)."""
    axes = _axes(axis, np.ndim(x))
    ord = None if ord == "fro" else ord
    matrix = len(axes) == 2 and (axis is not None or ord is not None)
    if not matrix or ord is None:
        kept = [1 if i in axes else n for i, n in enumerate(np.shape(x))]
        return _vector_norm_derivative(x, np.reshape(ans, kept), ord, axes)
    moved = np.moveaxis(x, axes, (-2, -1))
    return np.moveaxis(_matrix_norm_derivative(moved, ord), (-2, -1), axes)


def _eliminated_lower(x):
    """Lower triangle of ``x`` with its diagonal halved (Murray's Phi, self-adjoint)."""
    return np.tril(x) - np.tril(np.triu(x)) / 2


def cholesky_vjp(g, ans, upper=False):
    """Cotangent of ``a`` in ``L = np.linalg.cholesky(a)``: the symmetric matrix
    ``sym(L^-T Phi(L^T g) L^-1)`` (Murray, 2016). Symmetric as in PyTorch, since only
    symmetric perturbations of ``a`` keep it a valid input."""
    low = _transpose(ans) if upper else ans
    g_low = _transpose(g) if upper else g
    inv = np.linalg.inv(low)
    return _symmetric_part(_transpose(inv) @ _eliminated_lower(_transpose(low) @ g_low) @ inv)


def cholesky_jvp(t, ans, upper=False):
    """Tangent of ``L = np.linalg.cholesky(a)``: ``L Phi(L^-1 sym(t) L^-T)``."""
    low = _transpose(ans) if upper else ans
    inv = np.linalg.inv(low)
    tangent = low @ _eliminated_lower(inv @ _symmetric_part(t) @ _transpose(inv))
    return _transpose(tangent) if upper else tangent


def _eigengap_inverse(w):
    """``F[..., i, j] = 1 / (w[j] - w[i])`` off the diagonal, 0 on it."""
    gaps = np.expand_dims(w, -2) - np.expand_dims(w, -1)
    diagonal = np.eye(np.shape(w)[-1], dtype=bool)
    return np.where(diagonal, 0, 1 / np.where(diagonal, 1, gaps))


def eigh_vjp(g, ans):
    """Cotangent of ``a`` in ``w, v = np.linalg.eigh(a)``:
    ``sym(v (diag(g_w) + F * (v^T g_v)) v^T)``, ``F`` the inverse eigengaps (infinite for
    repeated eigenvalues, where the eigenvectors are not differentiable)."""
    g_w, g_v = g
    w, v = ans
    diagonal = np.expand_dims(g_w, -1) * np.eye(np.shape(w)[-1], dtype=bool)
    inner = diagonal + _eigengap_inverse(w) * (_transpose(v) @ g_v)
    return _symmetric_part(v @ inner @ _transpose(v))


def eigh_jvp(t, ans):
    """Tangent of ``(w, v) = np.linalg.eigh(a)``: ``dw = diag(v^T sym(t) v)``,
    ``dv = v (F * (v^T sym(t) v))``."""
    w, v = ans
    rotated = _transpose(v) @ _symmetric_part(t) @ v
    return np.diagonal(rotated, axis1=-2, axis2=-1), v @ (_eigengap_inverse(w) * rotated)


def linspace_weights(ans, num=50, endpoint=True, axis=0):
    """The share of ``stop`` in each sample of ``np.linspace(start, stop, num, endpoint,
    axis=axis)`` (the rest is ``start``'s), shaped to broadcast against ``ans``."""
    if isinstance(ans, tuple):
        raise NotImplementedError("sourcegrad does not differentiate np.linspace(..., "
                                  "retstep=True); compute the step from start and stop")
    shape = [1] * np.ndim(ans)
    shape[axis] = num
    weights = np.linspace(0, 1, num, endpoint=endpoint, dtype=_grad_dtype(ans))
    return np.reshape(weights, shape)


def along_samples(t, ans, axis=0):
    """The tangent ``t`` of ``np.linspace``'s ``start`` or ``stop``, broadcast to the shape
    of one sample and given a length-1 ``axis`` so it broadcasts against ``ans``."""
    sample_shape = np.delete(np.shape(ans), axis % np.ndim(ans))
    return np.expand_dims(np.broadcast_to(t, tuple(sample_shape)), axis)


def astype(x, dtype):
    """``x.astype(dtype)`` as a function (also for Python numbers), so that the cast has a
    rule of its own."""
    return np.asarray(x).astype(dtype) if not hasattr(x, "astype") else x.astype(dtype)
