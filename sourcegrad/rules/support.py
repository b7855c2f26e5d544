"""Helpers that derivative rules call, and so does the code generated from them.

This module is the whole runtime footprint of generated code: ``sourcegrad emit`` copies
these functions verbatim into the emitted file, so they depend on NumPy and nothing else.
Keep each one small, obvious and cheap when there is nothing to do (the common case of
matching shapes must cost one comparison).

They are array-generic: an array of another library that implements NumPy's protocols
(``__array_function__``, ``__array_ufunc__``: a Dask array, say) goes through NumPy's
functions, which hand it to that library, and comes out as that library's array. So a
helper never converts such an array to NumPy (``np.asarray`` would compute a lazy one),
never writes into one with ``out=`` or ``np.add.at``, and reads sizes from ``.shape``.
"""

import dataclasses
import math

import numpy as np
from numpy.lib.array_utils import normalize_axis_index


def is_foreign_array(x):
    """Is ``x`` an array of another library that implements NumPy's protocols (a Dask array,
    say)? NumPy functions hand it to that library; ``np.asarray`` would compute it."""
    return type(x) is not np.ndarray and hasattr(x, "__array_function__") and (
        not isinstance(x, np.generic))


def is_lazy_array(x):
    """Is ``x`` a lazy array (a Dask collection), which NumPy's in-place functions would
    compute or refuse (``np.add.at``, ``np.bincount`` with NumPy bins, writing it into a
    NumPy array)? Its helpers build the result in its own library instead."""
    return is_foreign_array(x) and hasattr(type(x), "__dask_graph__")


def _as_array(x):
    """``x`` as an array with ``.sum``, ``.ndim`` and ``.shape``: a NumPy array or another
    library's array as it is, anything else (a number, a list) as a NumPy array."""
    return x if type(x) is np.ndarray or is_foreign_array(x) else np.asarray(x)


def unbroadcast(g, x):
    """Sum ``g`` down to the shape of ``x``: the adjoint of NumPy's implicit broadcasting. A
    real ``x`` takes the real part of a complex ``g`` (a real value's cotangent is real:
    JAX's convention, see ``rules/complex.py``)."""
    shape = getattr(x, "shape", None)
    if shape is None:
        if isinstance(g, (list, tuple, dict)):  # a structure's cotangent: leaf by leaf
            return _leafwise(unbroadcast, g, x)
        shape = _shape(x)
    elif getattr(g, "shape", None) == shape:
        if g.dtype is x.dtype or g.dtype.kind != "c" or x.dtype.kind == "c":
            return g  # the common case, answered without another call
        return np.real(g)
    if np.iscomplexobj(g) and not np.iscomplexobj(x):
        g = np.real(g)
    if _shape(g) == shape:
        return g
    g = _as_array(g)  # the array's own sum: np.sum's dispatch costs more than the sum
    extra = g.ndim - len(shape)
    if extra > 0:
        g = g.sum(axis=tuple(range(extra)))
    stretched = tuple([i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1])
    if stretched:
        g = g.sum(axis=stretched, keepdims=True)
    return g


def unbroadcast_each(cotangent, x):
    """``unbroadcast`` leaf by leaf, for an ``x`` that may be a list, tuple or dict of arrays
    (``as_gradient``'s adjoint; the cotangent of a sequence is a list)."""
    if isinstance(x, (list, tuple)):
        return [unbroadcast_each(gi, xi) for gi, xi in zip(cotangent, x, strict=True)]
    if isinstance(x, dict):
        return {k: unbroadcast_each(cotangent[k], v) for k, v in x.items()}
    return unbroadcast(cotangent, x)


def broadcast_each(tangent, like):
    """``broadcast_like`` leaf by leaf (``unbroadcast_each``'s adjoint)."""
    if isinstance(like, (list, tuple)):
        return [broadcast_each(ti, li) for ti, li in zip(tangent, like, strict=True)]
    if isinstance(like, dict):
        return {k: broadcast_each(tangent[k], v) for k, v in like.items()}
    return broadcast_like(tangent, like)


def _shape(x):
    """``np.shape``, without its cost for Python numbers and arrays (the common cases)."""
    if isinstance(x, (list, tuple)):
        return np.shape(x)
    return getattr(x, "shape", ())


def _leafwise(helper, g, x):
    """``helper`` applied to each leaf of the structure ``g`` and the same leaf of ``x``."""
    if isinstance(g, (list, tuple)) and isinstance(x, (list, tuple)) and len(g) != len(x):
        raise TypeError(
            f"a derivative of {len(g)} elements for a list or tuple of {len(x)}: sourcegrad "
            "differentiated `+` or `*` of lists or tuples as arithmetic, not knowing that "
            "the operands were sequences (a parameter, say). Write list(xs) + list(ys) or "
            "list(xs) * n, which it differentiates as joining and repeating.")
    if isinstance(g, dict):
        return type(g)({k: _leafwise(helper, v, _part(x, k, None)) for k, v in dict.items(g)})
    if isinstance(g, (list, tuple)):
        return [_leafwise(helper, v, _part(x, i, i)) for i, v in enumerate(g)]
    return g if g is None or x is None else helper(g, x)


def broadcast_like(t, ans):
    """Broadcast a tangent ``t`` to the shape of the output ``ans``: forward mode's side of
    NumPy's implicit broadcasting, whose adjoint sums a cotangent back down."""
    if isinstance(t, (list, tuple, dict)):
        return _leafwise(broadcast_like, t, ans)
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
    return _broadcast_as(g, x, shape)


def _broadcast_as(g, x, shape):
    """``np.broadcast_to(g, shape)``, as an array of ``x``'s library when ``x`` is not NumPy's
    (multiplied into ``x``'s ones, so that a Dask cotangent takes ``x``'s chunks rather than
    one chunk the size of the data)."""
    if is_foreign_array(x):
        if isinstance(g, (float, int, np.number)):  # a read-only broadcast of each chunk
            return np.full_like(x, g, dtype=np.result_type(_grad_dtype(x), g))
        return g * np.ones_like(x, dtype=_grad_dtype(x))
    return np.broadcast_to(g, shape)


def _spread_scalar(g, x):
    """``np.broadcast_to(g, np.shape(x))`` for a one-element ``g``: a read-only view that
    repeats it, made without ``broadcast_to``'s generality (a full reduction's cotangent is
    the common case: the last operation of a loss). Its buffer is immutable ``bytes``, which
    makes the view read-only without a flags update. A Python number takes ``x``'s float
    dtype, as it would in NumPy's own arithmetic with ``x``."""
    shape = _shape(x)
    if is_foreign_array(x) or is_foreign_array(g):
        return _broadcast_as(g, x, shape)
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


def average_weights(weights, a, axis=None):
    """``np.average``'s weights as they multiply ``a``: ``1.0`` without weights; 1-D
    weights of an N-D ``a`` along ``axis``, where NumPy places them (reshaped to
    broadcast); weights of ``a``'s shape as they are."""
    if weights is None:
        return 1.0
    if np.ndim(weights) == 1 and np.ndim(a) > 1:
        shape = [1] * np.ndim(a)
        shape[axis] = np.shape(weights)[0]
        return np.reshape(weights, shape)
    return weights


def average_total(weights, a, axis=None, keepdims=False, returned=False):
    """The sum of ``np.average``'s weights over ``axis`` (the count of elements without
    weights), shaped as the average. ``returned=True`` (that sum as a second result) is
    refused: its derivative is not computed."""
    if returned:
        raise NotImplementedError("sourcegrad differentiates np.average(..., returned=False) "
                                  "only; compute the sum of the weights with np.sum")
    each = np.ones((), _grad_dtype(a)) if weights is None else average_weights(weights, a, axis)
    return np.sum(np.broadcast_to(each, np.shape(a)), axis=axis, keepdims=keepdims)


def reduced_count(x, ans):
    """How many elements of ``x`` were reduced into each element of ``ans`` (a lazy count
    where a lazy array's length is not known: ``_size``)."""
    reduced_into = _size(ans)
    if type(reduced_into) is not int:
        reduced_into = np.maximum(reduced_into, 1)
    else:
        reduced_into = max(reduced_into, 1)
    return _size(x) // reduced_into


def broadcast_size(x1, x2):
    """How many elements ``x1`` and ``x2`` broadcast together have, from their shapes alone
    (``np.broadcast(x1, x2).size`` would turn them into arrays first)."""
    size = 1
    for n in np.broadcast_shapes(np.shape(x1), np.shape(x2)):
        size *= n
    return size


def unit_tangents(x):
    """The one-hot tangents of the array or float ``x``, in C order (a Python float for a
    float), of ``x``'s float dtype (a float32 argument's derivatives are computed and
    returned in float32, as JAX does): the directions ``sg.jacobian`` runs forward mode
    along."""
    units = []
    dtype = _grad_dtype(x)
    for index in np.ndindex(np.shape(x)):
        unit = np.zeros(np.shape(x), dtype=dtype)
        unit[index] = 1.0
        units.append(float(unit) if isinstance(x, float) else unit)
    return units


def degrees_of_freedom(x, ans, ddof=0):
    """``n - ddof`` for ``var``/``std`` reducing ``n`` elements of ``x`` into each element of
    ``ans``; nan where it is not positive: NumPy divides by ``max(n - ddof, 0)`` there, the
    value is inf or nan, and has no derivative."""
    count = reduced_count(x, ans) - ddof
    if is_lazy_array(count):  # a lazy count: chosen lazily too
        return np.where(count > 0, count, np.nan)
    return count if count > 0 else np.nan


def one_if_single(value, x):
    """``value`` (a standard deviation of ``x``), or 1 where each of its elements reduces a
    single element of ``x``: it is then 0 whatever ``x`` is, and dividing by 1 keeps its
    derivative 0 rather than 0/0."""
    count = reduced_count(x, value)
    if is_lazy_array(count):  # a lazy count: chosen lazily too
        return np.where(count > 1, value, np.ones_like(value))
    return value if count > 1 else np.ones_like(value)


def element_count(x):
    """How many elements ``x`` has (``np.size``), read from its shape: a lazy array (Dask's)
    knows it without being computed."""
    return _size(x)


def _size(x):
    """``np.size``, without its cost for numbers, arrays, NumPy scalars and ``ShapeOf``. A
    lazy array whose length is known only once it is computed (a Dask array indexed by a
    boolean mask has size nan) has a lazy count: a mean divided by nan was a silent nan."""
    if type(x) is float:
        return 1
    size = getattr(x, "size", None)
    if size is None or callable(size):  # (a tensor's size is a method)
        return np.size(x)
    if type(size) is float and math.isnan(size):
        return np.sum(np.ones_like(x, dtype=np.int64))
    return size


def tie_weights(x, ans, axis=None, keepdims=False):
    """Weight of each element of ``x`` in the ``max``/``min`` ``ans`` over ``axis``: 1/k for
    each of the k elements that tie for the extreme, 0 elsewhere (PyTorch's ``amax``)."""
    ans_full = ans if keepdims or axis is None else np.expand_dims(ans, _axes(axis, np.ndim(x)))
    winners = x == ans_full
    count = np.sum(winners, axis=axis, keepdims=True, dtype=_grad_dtype(x))
    return winners / count


def extremes_weights(x, axis=None):
    """Weight of each element of ``x`` in ``max - min`` over ``axis`` (``np.ptp``)."""
    largest = np.max(x, axis=axis, keepdims=True)
    smallest = np.min(x, axis=axis, keepdims=True)
    return (tie_weights(x, largest, axis=axis, keepdims=True)
            - tie_weights(x, smallest, axis=axis, keepdims=True))


def quantile_weights(a, q, axis=None, method="linear"):
    """Weight of each element of ``a`` in each quantile ``q`` over ``axis`` (shape
    ``q.shape + a.shape``): NumPy's ``linear`` method interpolates between the two sorted
    neighbours of the virtual index ``q * (n - 1)``; a stable sort gives tied elements the
    weight of one sorted position each, as ``sort``'s derivative does."""
    return _by_rank(a, q, axis, method, lambda low, high, frac, n: (low * (1.0 - frac)
                                                                    + high * frac))


def quantile_slope_weights(a, q, axis=None, method="linear"):
    """``quantile_weights``' derivative in ``q``: the quantile moves at ``(n - 1)`` times the
    gap between its two sorted neighbours (the one above, at a whole virtual index)."""
    return _by_rank(a, q, axis, method, lambda low, high, frac, n: (high * (n - 1.0)
                                                                    - low * (n - 1.0)))


def _by_rank(a, q, axis, method, combine):
    """Weights ``combine(low, high, frac, n)`` of the sorted positions around each quantile's
    virtual index, moved to the elements of ``a`` holding them: ``q.shape + a.shape``."""
    if method != "linear":
        raise NotImplementedError(
            f"sourcegrad differentiates quantiles with method='linear' (NumPy's default) "
            f"only, not method={method!r}")
    a = np.asarray(a)
    q = np.asarray(q, dtype=np.float64)
    reduced = _axes(axis, a.ndim)
    kept = [d for d in range(a.ndim) if d not in reduced]
    moved = np.transpose(a, kept + list(reduced))
    flat = moved.reshape(moved.shape[:len(kept)] + (-1,))
    n = flat.shape[-1]
    virtual = q * (n - 1)
    low = np.minimum(np.floor(virtual).astype(np.intp), n - 1)
    high = np.minimum(low + 1, n - 1)
    positions = np.arange(n)
    by_rank = combine(positions == low[..., None], positions == high[..., None],
                      (virtual - low)[..., None], n)
    rank = np.argsort(np.argsort(flat, axis=-1, kind="stable"), axis=-1, kind="stable")
    weights = np.take(by_rank, rank, axis=-1)  # q.shape + kept shape + (n,)
    weights = weights.reshape(q.shape + moved.shape)
    back = np.argsort(kept + list(reduced))
    weights = np.transpose(weights, tuple(range(q.ndim)) + tuple(q.ndim + d for d in back))
    return weights.astype(_grad_dtype(a), copy=False)


def quantile_q_shape(a, q):
    """``q``'s shape followed by ones, one for each axis of ``a``: ``q`` against
    ``quantile_weights``."""
    return np.shape(q) + (1,) * np.ndim(a)


def quantile_trailing_axes(q, ans):
    """The axes of a quantile's result beyond ``q``'s own."""
    return tuple(range(np.ndim(q), np.ndim(ans)))


def quantile_axes(a, q, axis=None):
    """The axes of ``quantile_weights(a, q, axis)`` that the quantile reduces."""
    return tuple(np.ndim(q) + d for d in _axes(axis, np.ndim(a)))


def quantile_kept_axes(a, q, axis=None, keepdims=False):
    """The axes a quantile's cotangent lacks, against ``quantile_weights``' shape."""
    return () if keepdims else quantile_axes(a, q, axis)


def leading_axes(q):
    """The axes ``q``'s own shape puts in front of a quantile's result."""
    return tuple(range(np.ndim(q)))


def spread_over_ties(g, x, ans, axis=None, keepdims=False):
    """Cotangent of ``max``/``min`` over ``axis``: shared evenly among the elements that tie
    for the extreme, as PyTorch's ``amax``/``amin`` do."""
    return unreduce(g, x, axis, keepdims) * tie_weights(x, ans, axis, keepdims)


def _grad_dtype(x):
    """The float dtype of ``x``'s gradient: its own if float or complex, float64 otherwise."""
    dtype = np.result_type(x)
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def _refuse_complex(is_complex, what):
    """A derivative whose formula holds for real values only refuses complex ones (called
    with ``np.iscomplexobj(x)`` worked out beforehand, so that it reads no differentiated
    value)."""
    if is_complex:
        raise NotImplementedError(
            f"sourcegrad differentiates {what} of real values only; complex values pass "
            "through the FFT family, np.real/imag/conj/angle/abs and holomorphic functions")


def deviation(a, axis=None):
    """``a - mean(a, axis)`` (kept dimensions), for the derivatives of ``var`` and ``std``,
    which hold for real ``a`` only."""
    is_complex = np.iscomplexobj(a)
    _refuse_complex(is_complex, "np.var and np.std")
    return a - np.mean(a, axis=axis, keepdims=True)


def _axes(axis, ndim):
    """``axis`` (None, an int or a tuple, negatives allowed) as a tuple of non-negative ints.
    A 0-d value has none: NumPy reduces it over axis 0 or -1 to itself."""
    if axis is None or ndim == 0:
        return tuple(range(ndim))
    return tuple([int(a) % ndim for a in np.atleast_1d(axis)])


def zeros_like_grad(x):
    """A zero gradient with ``x``'s structure (float, even for integer ``x``); ``None`` (the
    tangent of a ``None`` in a display, say) stays ``None``. A namedtuple's or dataclass's is
    ``Fields``, a tuple's a list: the adjoint assigns into them."""
    if type(x) is np.ndarray:  # the common cases first: no dataclass test for them
        if x.dtype.kind == "V":  # a structured array: no number to differentiate
            refuse_misread(None, x)
        return np.zeros(x.shape, dtype=x.dtype if x.dtype.kind in "fc" else np.float64)
    if type(x) is float:
        return 0.0
    if type(x) is list or type(x) is tuple:  # plain ones: not namedtuples
        return [zeros_like_grad(v) for v in x]
    if type(x) is dict:
        return {k: zeros_like_grad(v) for k, v in x.items()}
    if x is None:
        return None
    fields = record_fields(x)
    if fields is not None:
        return Fields({k: zeros_like_grad(v) for k, v in fields.items()})
    if isinstance(x, (list, tuple)):
        return [zeros_like_grad(v) for v in x]
    if isinstance(x, dict):
        return type(x)({k: zeros_like_grad(v) for k, v in dict.items(x)})
    if callable(x):
        return None  # a function: no derivative at all
    if isinstance(x, (float, int)) and not isinstance(x, bool):
        return 0.0
    refuse_misread(None, x)  # an np.matrix, a masked or structured array
    if is_foreign_array(x):  # zeros of its own library (lazy for a Dask array)
        return np.zeros_like(x, dtype=_grad_dtype(x))
    if type(x) is not ShapeOf:
        x = np.asarray(x)
    return np.zeros(x.shape, dtype=x.dtype if x.dtype.kind in "fc" else np.float64)


def zeros_like_grad_with(x, parts):
    """``zeros_like_grad(x)`` plus ``parts[key]`` at each key: the cotangent of a dict (a
    layer's ``{'W': ..., 'b': ...}``) whose entries the backward sweep worked out, built at
    once where it was zeros added to key by key (``passes/structure_zeros.py``). For a plain
    dict no zero is made for a key in ``parts``; the result has ``x``'s keys in ``x``'s
    order, as ``zeros_like_grad`` has. Anything else (a record's ``Fields``, a mapping of
    another type) is built as before: zeros, and each part added to its key's zero."""
    if type(x) is dict and type(parts) is dict:
        if len(parts) == len(x):
            if list(parts) == list(x):
                return parts
            if dict.keys(parts) == dict.keys(x):
                return {k: parts[k] for k in x}
        elif dict.keys(parts) <= dict.keys(x):
            return {k: parts[k] if k in parts else zeros_like_grad(v) for k, v in x.items()}
    grad = zeros_like_grad(x)
    for key, part in parts.items():
        grad[key] = grad[key] + part
    return grad


def parts_of_grad(cotangent, parts):
    """The entries of ``cotangent`` at the keys of ``parts`` (``None`` where it has none):
    the adjoint of ``zeros_like_grad_with`` in ``parts``."""
    return {k: _part(cotangent, k, None) for k in parts}


def zero_slots(x):
    """``zeros_like_grad(x)`` for a loop that adds into every element of it
    (``grad_xs[i] = add_grads(grad_xs[i], ...)`` over ``range(len(xs))``,
    ``passes/structure_zeros.py``): a plain list's or tuple's elements are ``None``, the
    zero that ``add_grads`` takes as such, so that no zeros are made only to be added to."""
    if type(x) is list or type(x) is tuple:
        return [None] * len(x)
    return zeros_like_grad(x)


def zeros_like_sequence(x):
    """``zeros_like_grad`` that keeps a tuple a tuple: the zero tangent of a list or tuple
    that a linear rule takes as a whole (``a + b`` of tuples, forward mode applying the join
    to the tangents, where ``b`` has one and ``a`` not: ``[0.0] + (t,)`` fails)."""
    zeros = zeros_like_grad(x)
    return tuple(zeros) if isinstance(x, tuple) and type(x) is tuple else zeros


def misread_array(x):
    """Why derivative rules, which follow ``np.ndarray``'s semantics, would be silently wrong
    on ``x``: for a NumPy array type whose operators or reductions mean something else,
    ``(what it is, what to write instead)``; ``None`` for every other value. Another
    library's array and a subclass that keeps ndarray's semantics are not refused: their
    derivatives come back as their type."""
    if not isinstance(x, np.ndarray):
        return None
    if isinstance(x, np.matrix):
        what = ("a numpy.matrix, whose `*` is a matrix product, `**` a matrix power and whose "
                "reductions keep two dimensions, where derivative rules multiply elementwise "
                "as for an ndarray")
        instead = ("Use np.asarray(...) instead (and `@` for a matrix product, "
                   "np.linalg.matrix_power for a power)")
        return what, instead
    if any(c.__name__ == "MaskedArray" and c.__module__.startswith("numpy.ma")
           for c in type(x).__mro__):
        what = ("a numpy.ma.MaskedArray, whose reductions skip the masked elements (np.mean "
                "divides by the count of the others) and whose results keep any data under "
                "the mask, where derivative rules follow an ndarray's")
        instead = ("Pass the data and the mask as two arrays and write the masking out "
                   "(np.where(mask, 0.0, x), np.sum(~mask) for the count) instead")
        return what, instead
    if x.dtype.names is not None:
        what = f"a structured array (dtype {x.dtype}), whose elements are records, not numbers"
        instead = ("Pass its fields as separate arrays, or a dict of them "
                   "({name: x[name] for name in x.dtype.names}), instead")
        return what, instead
    return None


def refuse_misread(g, x):
    """Raise ``TypeError`` where ``x`` (an argument) or its derivative ``g`` is an array
    whose derivative would be silently wrong (``misread_array``): ``g`` is one when the
    function computed with such an array (one it was given as a constant argument, or
    found as an attribute of ``self``)."""
    reason = misread_array(x)
    if reason is not None:
        raise TypeError(f"sourcegrad cannot differentiate at an argument that is "
                        f"{reason[0]}. {reason[1]}.")
    reason = misread_array(g)
    if reason is not None:
        raise TypeError(f"sourcegrad cannot differentiate this function: a derivative came "
                        f"out as {reason[0]}, from an array of that type the function "
                        f"computed with. {reason[1]}.")


def as_gradient(g, x):
    """The gradient returned to the user: ``x``'s structure, type and (float) dtype, and never
    a read-only broadcast view. An array whose derivative would be silently wrong (an
    ``np.matrix``, a masked array: ``misread_array``) is refused."""
    if type(g) is RowSparse:
        g = g.dense()
    if type(g) is np.ndarray and type(x) is np.ndarray and g.dtype == x.dtype and (
        g.shape == x.shape and g.flags.writeable and g.base is None
    ):
        return g  # the common case: a fresh float array of the right shape
    if type(x) is float and type(g) in (float, np.float64):
        return float(g)  # the other common case: a float parameter (a bias, a step size)
    if isinstance(x, (list, tuple, dict)) or record_fields(x) is not None:
        return _tree_gradient(g, x)
    if isinstance(x, np.ndarray) or isinstance(g, np.ndarray):
        refuse_misread(g, x)
    if g is None:
        return zeros_like_grad(x)
    if is_foreign_array(g) or is_foreign_array(x):
        return _foreign_gradient(g, x)
    if np.ndim(g) != 0 and np.shape(g) != np.shape(x):
        raise ValueError(f"gradient of shape {np.shape(g)} for an argument of shape "
                         f"{np.shape(x)}: please report this as a sourcegrad bug")
    if np.iscomplexobj(g) and not np.iscomplexobj(x):
        g = np.real(g)  # a real argument's gradient is real (see unbroadcast)
    if isinstance(x, (float, int)) and not isinstance(x, bool):
        return float(g)
    x = np.asarray(x)
    dtype = x.dtype if x.dtype.kind in "fc" else np.float64
    if np.shape(g) != x.shape:
        g = np.broadcast_to(g, x.shape)
    if not isinstance(g, np.ndarray) or g.dtype != dtype or not g.flags.writeable:
        g = np.array(g, dtype=dtype)
    return g


def _foreign_gradient(g, x):
    """``as_gradient`` where ``g`` or ``x`` is another library's array: the gradient stays
    that library's (a Dask array, or a 0-d Dask array for a float ``x``: computing it is the
    caller's ``dask.compute``), with ``x``'s shape and float dtype."""
    if np.iscomplexobj(g) and not np.iscomplexobj(x):
        g = np.real(g)
    shape = _shape(x)
    dtype = _grad_dtype(x)
    if not is_foreign_array(g):  # x is foreign, its gradient a constant
        return g * np.ones_like(x, dtype=dtype) if shape != () else float(g)
    if _shape(g) != shape:
        g = np.broadcast_to(g, shape)
    return g if g.dtype == dtype else g.astype(dtype)


def _tree_gradient(g, x):
    """The gradient of a structure ``x`` (lists, tuples, dicts, namedtuples, dataclasses):
    the same containers and keys, ``None`` at the leaves that are not floats. Plain lists,
    tuples and dicts whose gradient is a structure of the same kind are walked without
    asking what else they could be (the layers of a small network: a third of its
    gradient's time went into those questions)."""
    kind = type(x)
    if kind is dict and type(g) is dict:
        return {k: _subtree_gradient(dict.get(g, k), v) for k, v in x.items()}
    if (kind is list or kind is tuple) and (type(g) is list or type(g) is tuple) and len(
            g) == len(x):
        return kind([_subtree_gradient(p, v) for p, v in zip(g, x, strict=True)])
    fields = record_fields(x)
    if fields is not None:
        grads = {k: _tree_gradient(_part(g, k, i), v)
                 for i, (k, v) in enumerate(fields.items())}
        return rebuild_record(x, grads)
    if isinstance(x, (list, tuple)):
        parts = [_tree_gradient(_part(g, i, i), v) for i, v in enumerate(x)]
        return type(x)(parts) if type(x) in (list, tuple) else type(x)(*parts)
    if isinstance(x, dict):
        return {k: _tree_gradient(_part(g, k, None), v) for k, v in x.items()}
    if not is_float_leaf(x):
        return None
    return as_gradient(g, x)


def _subtree_gradient(g, x):
    """``_tree_gradient`` of a part: an array or a float at once, and a fresh float array of
    the right shape (``as_gradient``'s common case: a layer's weights) without a call."""
    kind = type(x)
    if kind is np.ndarray:
        if x.dtype.kind not in "fc":
            return None
        if type(g) is np.ndarray and g.base is None and g.dtype is x.dtype and (
                g.shape == x.shape and g.flags.writeable):
            return g
        return as_gradient(g, x)
    if kind is float:
        return as_gradient(g, x)
    return _tree_gradient(g, x)


def _part(g, key, position):
    """``g``'s part for ``key`` (a field, index or dict key), ``None`` where it has none."""
    if g is None:
        return None
    if isinstance(g, dict):
        return dict.get(g, key)
    if record_fields(g) is not None:
        return getattr(g, key) if isinstance(key, str) else g[key]
    if isinstance(g, (list, tuple)):
        return g[position] if position is not None and position < len(g) else None
    return g[key]  # an array standing for a list (the cotangent of np.array(list))


def is_float_leaf(x):
    """Does a leaf of a structure carry a gradient: a float, or an array of floats?"""
    if isinstance(x, (bool, int, str, bytes)) or x is None:
        return False
    if isinstance(x, (float, complex)):
        return True
    dtype = getattr(x, "dtype", None)
    return dtype is not None and dtype.kind in "fc"


def record_fields(x):
    """The fields of a namedtuple or dataclass instance by name, else ``None``."""
    if isinstance(x, tuple) and hasattr(type(x), "_fields"):
        return dict(zip(type(x)._fields, x, strict=True))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: getattr(x, f.name) for f in dataclasses.fields(x)}
    return None


def rebuild_record(x, values):
    """An instance of ``x``'s namedtuple or dataclass holding ``values`` (by field name)."""
    if isinstance(x, tuple):
        return type(x)(**values)
    new = object.__new__(type(x))  # frozen dataclasses, fields without __init__ too
    if hasattr(x, "__dict__"):
        new.__dict__.update(x.__dict__)
    for key, value in values.items():
        object.__setattr__(new, key, value)
    return new


class Fields(dict):
    """The cotangent (or tangent) of a namedtuple or dataclass while generated code builds
    it: a dict of its fields (``grad_p['w']``), read as attributes too (``tangent_p.w``, as
    the namedtuple itself would be), indexed by position as a namedtuple is (``grad_p[0]``),
    and unpacked into its values."""

    def __getattr__(self, name):
        try:
            return dict.__getitem__(self, name)
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key):
        if isinstance(key, int):
            key = list(dict.keys(self))[key] if not dict.__contains__(self, key) else key
        return dict.__getitem__(self, key)

    def __setitem__(self, key, value):
        if isinstance(key, int) and not dict.__contains__(self, key):
            key = list(dict.keys(self))[key]
        dict.__setitem__(self, key, value)

    def __iter__(self):
        return iter(list(dict.values(self)))

    def __len__(self):
        return dict.__len__(self)


class RowSparse(np.lib.mixins.NDArrayOperatorsMixin):
    """A gradient that is zero but for elements (rows, mostly) added at indices: what a
    function reading a few rows of a large array gives that array, kept as ``(index,
    values)`` pairs and made dense once, when something needs the array (the gradient
    returned to the user, or any NumPy operation, which sees the dense array). Without it,
    a loss called once per word would allocate and add a dense gradient of the whole
    embedding matrix per call. Generated code makes one only for an accumulator it only
    scatters and adds into; a sum of two is one (their pairs), any other arithmetic is that
    of the dense array."""

    __slots__ = ("dtype", "parts", "shape")

    def __init__(self, shape, dtype, parts):
        self.shape = shape
        self.dtype = dtype
        self.parts = parts  # (index, values) pairs and RowSparse operands of a sum

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape))

    def dense(self):
        """The array. A row at an integer index is added as it is (it cannot repeat); the
        parts at arrays of row indices, which may repeat, are added by one ``np.add.at`` of
        their elements into the flat array (``_add_rows``: one call per part cost a seventh
        of word2vec's gradient); other indices (slices, masks, several axes) one by one. The
        sum is taken in another order than the additions were made: equal to rounding."""
        out = np.zeros(self.shape, self.dtype)
        rows, values = [], []
        row_shape = self.shape[1:]
        pending = [self]
        while pending:  # iterative: a long loop's sums nest deeply
            for part in pending.pop().parts:
                if type(part) is RowSparse:
                    pending.append(part)
                    continue
                index, value = part
                if type(index) is int or isinstance(index, np.integer):  # one row
                    out[index] += value
                elif type(index) is np.ndarray and index.dtype.kind in "iu" and index.size:
                    rows.append(index.reshape(-1))
                    values.append(_as_rows(value, index.shape + row_shape, row_shape))
                else:
                    np.add.at(out, index, value)
        if len(rows) == 1:
            np.add.at(out, rows[0], values[0])
        elif rows:
            _add_rows(out, np.concatenate(rows), np.concatenate(values))
        return out

    def __array__(self, dtype=None, copy=None):
        out = self.dense()
        return out if dtype is None else out.astype(dtype)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if ufunc is np.add and method == "at" and inputs[0] is self:
            # a copy: the generated code may update the cotangent in place later
            self.parts.append((inputs[1], np.array(inputs[2], dtype=self.dtype)))
            return None
        inputs = tuple(x.dense() if type(x) is RowSparse else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __add__(self, other):
        if type(other) is RowSparse:
            return RowSparse(self.shape, np.result_type(self.dtype, other.dtype),
                             [self, other])
        return np.add(self.dense(), other)

    def __radd__(self, other):
        return np.add(other, self.dense())

    def __getitem__(self, key):
        return self.dense()[key]


def _as_rows(value, shape, row_shape):
    """``value`` broadcast to ``shape`` (an index's shape, then ``row_shape``), as a stack of
    rows (a reshape where broadcasting adds only leading axes of length 1)."""
    if value.shape != shape[len(shape) - value.ndim:] or value.size != math.prod(shape):
        value = np.broadcast_to(value, shape)
    return value.reshape((-1, *row_shape))


def _add_rows(out, rows, values):
    """``np.add.at(out, rows, values)`` for a 1-d array of row indices of a C-contiguous
    ``out``: as ``np.add.at`` of the elements into the flat array (a negative row's
    elements are negative flat indices of the same row), which NumPy does several times
    faster than adding rows of many elements one at a time."""
    count = out.shape[0]
    if rows.min() < -count or rows.max() >= count:
        np.add.at(out, rows, values)  # raises NumPy's IndexError
        return
    width = math.prod(out.shape[1:])
    if width != 1:
        rows = (rows[:, None] * width + np.arange(width)).reshape(-1)
    np.add.at(out.reshape(-1), rows, values.reshape(-1))


def row_sparse_zeros(x):
    """``zeros_like_grad(x)``, as a ``RowSparse`` for a large float array (where a dense
    zero per call costs more than keeping the rows added into it)."""
    # 4096 elements: below that, a dense zero costs less than the bookkeeping
    if type(x) is np.ndarray and x.ndim and x.size >= 4096 and x.dtype.kind == "f":
        return RowSparse(x.shape, x.dtype, [])
    return zeros_like_grad(x)


def no_cotangent(x):
    """``x`` itself: an output of a function whose caller reads no derivative of it (the
    ``cache`` a step function returns beside the next state). The function's backward is
    made for its other outputs only, and the caller passes ``None`` for this one instead of
    a zero it would push through the whole body (issue 14)."""
    return x


def add_at(a, index, b):
    """``a[index] += b`` in place, repeated indices adding up (``np.add.at``), for an ``a``
    that is a list or dict (one element, the index a key), a NumPy array or another
    library's array that has no ``np.add.at`` (a Dask array: its elements are set again,
    ``b`` summed over repeated indices first, lazily)."""
    if isinstance(a, (list, dict)):
        a[index] = add_grads(a[index], b)
    elif type(a) is RowSparse:  # the pair kept (a copy: b may be updated in place later)
        a.parts.append((index, np.array(b, dtype=a.dtype)))
    elif type(a) is np.ndarray:
        np.add.at(a, index, b)
    else:
        unique, summed = _summed_over_repeats(index, b, a)
        a[unique] = a[unique] + summed


def add_into(a, b):
    """``a + b``, added into ``a`` when that is a NumPy array the generated code owns and the
    sum is one too (another library's ``b``, a Dask array say, cannot be written into a
    NumPy array: the sum is then a new array of that library)."""
    if type(a) is np.ndarray and not is_foreign_array(b):
        a += b
        return a
    return a + b


def _summed_over_repeats(index, b, a):
    """``(unique, summed)`` such that ``a[unique] += summed`` adds ``b`` at ``index`` as
    ``np.add.at`` does: the index's rows of ``b`` summed over each repeated position (an index
    of basic slices and numbers repeats nothing)."""
    basic = (slice, int, np.integer, type(None), type(...))
    if isinstance(index, basic) or isinstance(index, tuple) and all(
            isinstance(i, basic) for i in index):
        return index, b
    if isinstance(index, tuple) or is_foreign_array(index):
        raise NotImplementedError(
            f"sourcegrad adds a gradient into a {type(a).__name__} at an index that may repeat "
            "elements only for one NumPy array of indices along the first axis (x[rows]); "
            "index the axes one after the other (x[rows][:, cols]) or with NumPy indices")
    positions = np.asarray(index)
    if positions.dtype == bool:
        return positions, b
    positions = positions % _shape(a)[0]
    unique, inverse = np.unique(positions.reshape(-1), return_inverse=True)
    if len(unique) == positions.size:
        return positions, b
    b = np.broadcast_to(b, positions.shape + _shape(a)[1:]) if not is_foreign_array(b) else b
    rows = np.reshape(b, (positions.size, -1))
    gathering = np.zeros((len(unique), positions.size), dtype=_grad_dtype(a))
    gathering[inverse, np.arange(positions.size)] = 1.0
    return unique, np.reshape(gathering @ rows, (len(unique), *_shape(a)[1:]))


def entry_of(container, key):
    """What ``container[key]`` holds before a write replaces it, copied (``(value,)``), or
    ``()`` when a dict has no such key yet: what ``put_back`` restores."""
    if isinstance(container, dict) and key not in container:
        return ()
    value = container[key]
    return (np.copy(value) if isinstance(value, np.ndarray) else value,)


def put_back(container, key, old):
    """Undo a write into ``container[key]``: the old entry back, or none (``old == ()``)."""
    if old:
        container[key] = old[0]
    else:
        del container[key]


def fields(**values):
    """The tangent of a namedtuple or dataclass built in the code (``P(w=a, b=c)``)."""
    return Fields(values)


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
    if n1 == 1 and n2 == 1:  # a dot product: g is a number
        return g * x2
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
    if n1 == 1 and n2 == 1:  # a dot product: g is a number
        return x1 * g
    gm, x1m, x2m = _as_matrices(g, x1, x2)
    return np.reshape(unbroadcast(np.swapaxes(x1m, -1, -2) @ gm, x2m), np.shape(x2))


def matmul_over_steps(xs, w):
    """``xs[t] @ w`` for every step ``t`` of a loop over ``range(len(xs))``, made before the
    loop (``passes/batched_products.py``): one product ``xs @ w`` for an array ``xs`` whose
    steps are vectors or matrices and a matrix or vector ``w`` whose rows match (each
    step's product is then its slice); else the list of the steps' products (a list of
    steps, another library's array: a Dask array stays lazy, one product a step)."""
    if type(xs) is np.ndarray and xs.ndim >= 2 and type(w) is np.ndarray and (
            w.ndim in (1, 2) and xs.shape[-1] == w.shape[0]):
        return xs @ w
    return [xs[t] @ w for t in range(len(xs))]


def matmul_vjp_x1_over_steps(gs, xs, w):
    """The cotangent of ``xs`` in ``matmul_over_steps(xs, w)``, from that product's cotangent
    ``gs`` (an array when the product was one array, else a list of the steps'): an array
    for an array ``xs``, a list for a list (or tuple) of steps."""
    if not isinstance(gs, (list, tuple)):
        return matmul_vjp_x1(gs, xs, w)
    steps = [matmul_vjp_x1(gs[t], xs[t], w) for t in range(len(gs))]
    if isinstance(xs, (list, tuple)):
        return steps
    return np.stack(steps) if steps else zeros_like_grad(xs)


# the elements of the steps' arrays that one product of many steps stacks (at most)
_STEPS_PRODUCT_ELEMENTS = 4096


def matmul_vjp_x2_over_steps(gs, x1s, x2):
    """``sum(matmul_vjp_x2(g, x1, x2) for g, x1 in zip(gs, x1s))``: the cotangent of a matrix
    ``x2`` that every step of a loop multiplied (``x1 @ x2``), from each step's cotangent
    ``g`` and left factor ``x1`` (``passes/batched_products.py`` collects them), which is
    also the cotangent of ``w`` in ``matmul_over_steps(xs, w)`` (``gs`` and ``x1s`` are then
    arrays of all steps when that product was one). When the steps' arrays are float64 and
    their rows line up with ``x2``, the rows of many steps are stacked and multiplied at
    once (``x1_rows.T @ g_rows``): a few products where the loop made one a step, each over
    at most about 4,096 stacked elements (the copies add that much to the peak memory).
    Anything else, and steps as large as that, are summed step by step, as the loop would
    have."""
    if not isinstance(gs, (list, tuple)):  # arrays of all steps
        return matmul_vjp_x2(gs, x1s, x2)
    if not gs:
        return 0.0
    shape = getattr(x2, "shape", None)  # an array, or only its shape (``ShapeOf``)
    steps = 1
    if shape is not None and len(shape) == 2 and _rows_line_up(gs, x1s, shape):
        steps = _STEPS_PRODUCT_ELEMENTS // (gs[0].size + x1s[0].size)
    if steps <= 1:  # (a step of 4,096 elements or more is a product of its own: no copies)
        total = 0.0
        for g, x1 in zip(gs, x1s, strict=True):
            total = total + matmul_vjp_x2(g, x1, x2)
        return total
    total = None
    for start in range(0, len(gs), steps):
        part = (_stacked_rows(x1s[start:start + steps], shape[0]).T
                @ _stacked_rows(gs[start:start + steps], shape[1]))
        total = part if total is None else total + part
    return total


def enough_steps(gs, x1s):
    """Have a loop's collected cotangents ``gs`` and left factors ``x1s`` (lists, one entry a
    step) reached about 4,096 elements? Then the loop multiplies them at once
    (``matmul_vjp_x2_over_steps``) and lets them go, so that it keeps a few steps' arrays
    alive, not all of them (``passes/batched_products.py``)."""
    if not gs:  # (a step's product may be in a branch the loop has not taken yet)
        return False
    size = _size(gs[-1]) + _size(x1s[-1])  # (from the shapes: a Dask array stays lazy)
    return len(gs) * size >= _STEPS_PRODUCT_ELEMENTS


def _stacked_rows(arrays, width):
    """The rows of ``arrays`` (each ``(..., width)``) as one matrix."""
    if arrays[0].ndim == 2:
        return np.concatenate(arrays)
    return np.concatenate([np.reshape(a, (-1, width)) for a in arrays])


def _rows_line_up(gs, x1s, shape):
    """Are all steps' ``g`` and ``x1`` float64 arrays of one number of dimensions (at least
    one), each ``g`` shaped as its step's ``x1 @ x2`` is (``x2`` of ``shape``)? Asked of the
    sets of their types, dtypes and shapes first: one of each, in the usual case."""
    if len(gs) != len(x1s) or {type(a) for a in gs} | {type(a) for a in x1s} != {np.ndarray}:
        return False
    if {a.dtype for a in gs} | {a.dtype for a in x1s} != {np.dtype(np.float64)}:
        return False
    g_shapes, x1_shapes = {g.shape for g in gs}, {x1.shape for x1 in x1s}
    if len(g_shapes) == 1 == len(x1_shapes):
        pairs = [(next(iter(g_shapes)), next(iter(x1_shapes)))]
    else:
        pairs = [(g.shape, x1.shape) for g, x1 in zip(gs, x1s, strict=True)]
    ndim = len(pairs[0][0])
    return ndim >= 1 and all(
        len(g) == len(x1) == ndim and x1[-1] == shape[0] and g[-1] == shape[1]
        and g[:-1] == x1[:-1] for g, x1 in pairs)


def private_copy(g):
    """A copy the generated code owns, so that it can update it in place (a gradient, a
    stack of saved values, an array whose elements the backward sweep restores)."""
    if isinstance(g, (list, tuple)):
        return list(g)
    if isinstance(g, dict):
        return type(g)(dict.items(g))
    if type(g) is ShapeOf:  # only a shape was kept: nothing to update (a gradient's own
        return g  # `x = shape_only(x)`, differentiated again, saves that)
    if is_foreign_array(g):
        return g.copy()  # another library's own copy (a new Dask array of the same graph)
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
    shape = dtype = foreign = None
    numbers = []
    for x in operands:
        if type(x) in absorbed_by:
            numbers.append(x)
            continue
        if type(x) is not np.ndarray and type(x) is not ShapeOf:
            x = _as_array(x)
            if is_foreign_array(x) and (foreign is None or x.ndim > foreign.ndim):
                foreign = x
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
    if foreign is not None:
        return _lazy_zeros(foreign, shape, dtype)
    return ShapeOf(shape, dtype)


def _lazy_zeros(like, shape, dtype):
    """Zeros of ``shape`` in the library of ``like`` (another library's array), standing for
    a value only the shape of which is read: the cotangents spread over it then take that
    library's type and, for Dask, ``like``'s chunks (a NumPy ``ShapeOf`` would make them NumPy
    arrays the size of the data, sent whole into the graph)."""
    zeros = np.zeros_like(like, dtype=dtype)
    return zeros if _shape(zeros) == shape else np.broadcast_to(zeros, shape)


def add_grads(a, b):
    """``a + b`` for gradients that may be lists, tuples, dicts or ``Fields`` of arrays
    (``None``: a zero)."""
    if a is None:
        return b
    if b is None:
        return a
    if type(a) is dict and type(b) is dict and dict.keys(a) == dict.keys(b):
        # the gradients of a dict of arrays (a layer's): summed at once, in b's order as below
        return {k: a[k] + v if type(v) is np.ndarray and type(a[k]) is np.ndarray
                else add_grads(a[k], v) for k, v in b.items()}
    if isinstance(a, dict) or isinstance(b, dict):
        if not isinstance(a, dict):
            a, b = b, a
        if not isinstance(b, dict):  # a list for a namedtuple (the adjoint of unpacking)
            b = dict(zip(dict.keys(a), b, strict=True))
        total = {**b, **{k: add_grads(v, b[k]) if k in b else v for k, v in dict.items(a)}}
        return type(a)(total)
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
    if isinstance(dtype, np.dtype) and dtype.kind in "fiu" and _size(value) == 1:
        if is_foreign_array(value):  # a NumPy 1: the backward graph needs no value of it
            return np.ones(value.shape, dtype=np.result_type(dtype, 1.0))
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
    if isinstance(value, tuple) and len(value) == 2:
        return "If its second part is auxiliary data, pass has_aux=True."
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
    if is_lazy_array(g):  # (a Dask array: no np.add.at, no writing through a view)
        moved = _scatter_add(np.moveaxis(g, axis, 0),
                             (shape[axis], *shape[:axis], *shape[axis + 1:]), owner)
        return np.reshape(np.moveaxis(moved, 0, axis), np.shape(a))
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


def sort_order(iterable, key=None, reverse=False):
    """The positions of ``iterable``'s elements in the order ``sorted(iterable, key=key,
    reverse=reverse)`` puts them (stable, as ``sorted`` is)."""
    items = list(iterable)
    rank = items.__getitem__ if key is None else (lambda i: key(items[i]))
    return sorted(range(len(items)), key=rank, reverse=reverse)


def _is_mapping(x):
    return isinstance(x, (dict, type({}.keys()), type({}.values()), type({}.items())))


def unsorted(parts, iterable, key=None, reverse=False):
    """The cotangent of ``iterable`` in ``sorted(iterable, ...)`` (``parts``, one per place):
    each element's is the one of the place it was sorted to (an array's rows back in an
    array); a dict's (its keys sorted) is zero."""
    if _is_mapping(iterable):
        return zeros_like_grad(iterable if isinstance(iterable, dict) else list(iterable))
    order = sort_order(iterable, key, reverse)
    out = [None] * len(order)
    for place, position in enumerate(order):
        out[position] = parts[place]
    if isinstance(iterable, np.ndarray):
        return np.reshape(np.array(out, dtype=np.result_type(iterable, 1.0)),
                          iterable.shape)
    return out


def sorted_like(parts, iterable, key=None, reverse=False):
    """The tangent of ``sorted(iterable, ...)``: the elements of ``parts`` (one per element
    of ``iterable``) in the sorted order; none for a dict's keys."""
    if _is_mapping(iterable):
        return [None] * len(iterable)
    return [parts[position] for position in sort_order(iterable, key, reverse)]


def joined(a, b):
    """``a + b`` of two lists or tuples: Python's concatenation, the primitive the resolver
    takes ``+`` for when an operand is known to be a sequence (``np.add`` otherwise)."""
    return a + b


def repeated(items, n):
    """``items * n`` (or ``n * items``) of a list or tuple: Python's repetition."""
    return items * n


def summed_repeats(parts, items):
    """The cotangent of ``items`` in ``items * n``: each element's is the sum of its copies'
    (``parts`` holds ``n`` times ``len(items)`` cotangents)."""
    total = [zeros_like_grad(x) for x in items]
    for k, part in enumerate(parts):
        total[k % len(items)] = add_grads(total[k % len(items)], part)
    return total


def unstack_like(g, obj):
    """Cotangent of ``obj`` in ``np.array(obj)``: ``g`` cut back into ``obj``'s nesting of
    lists and tuples, each leaf with its own shape."""
    if isinstance(obj, (list, tuple)):
        return type(obj)(unstack_like(gi, oi) for gi, oi in zip(g, obj, strict=True))
    if isinstance(g, dict) or isinstance(obj, dict):  # a dict's cotangent is one already
        return g
    return np.reshape(g, np.shape(obj))


def along_axis_index(shape, indices, axis):
    """The index that ``np.put_along_axis(arr, indices, values, axis)`` writes through, so
    that the call is the assignment ``arr[along_axis_index(arr.shape, indices, axis)] =
    values`` (as NumPy itself writes it: repeated places keep the last value). ``axis=None``
    indexes the flattened array with the 1-d ``indices``."""
    indices = np.asarray(indices)
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        size = math.prod(shape)
        return np.unravel_index(np.where(indices < 0, indices + size, indices), shape)
    if indices.ndim != len(shape):
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = normalize_axis_index(axis, len(shape))
    ones = (1,) * indices.ndim
    return tuple(indices if dim == axis else np.arange(n).reshape(ones[:dim] + (-1,)
                                                                  + ones[dim + 1:])
                 for dim, n in enumerate(shape))


def index_put(x, index, values):
    """A copy of ``x`` with ``values`` written at ``index``: the assignment ``x[index] =
    values`` as a function (the runtime records assignments into tensors with it)."""
    out = np.array(x, copy=True)
    out[index] = values
    return out


def filled_with(x, value):
    """An array of ``x``'s shape and dtype holding ``value`` (broadcast): ``x.copy_(value)``
    and ``x.fill_(value)`` as a function, in which ``x``'s elements play no part."""
    return np.array(np.broadcast_to(value, np.shape(x)), dtype=np.result_type(x))


def _scatter_add(g, shape, index):
    """A zero array of ``shape`` into which ``g`` is added at ``index`` (repeats add up); of
    ``g``'s library where that is a lazy one (a Dask array: ``add_at``, lazily)."""
    if is_lazy_array(g):
        grad = np.zeros_like(g, shape=shape, dtype=_grad_dtype(g))
        add_at(grad, index, g)
        return grad
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
    if is_lazy_array(g):
        return _lazy_undiagonal(g, a, offset, axis1, axis2)
    grad = np.zeros(np.shape(a), dtype=_grad_dtype(g))
    view = np.moveaxis(grad, (axis1, axis2), (-2, -1))
    length = max(0, min(view.shape[-2] + min(offset, 0), view.shape[-1] - max(offset, 0)))
    steps = np.arange(length)
    view[..., steps - min(offset, 0), steps + max(offset, 0)] = g
    return grad


def _lazy_undiagonal(g, a, offset, axis1, axis2):
    """``undiagonal`` for a lazy ``g`` (a Dask array, which writing into a NumPy array would
    compute): ``g`` spread along the columns its diagonal crosses, kept on the
    diagonal by a mask of ``g``'s library (``np.arange(..., like=g)``), lazily."""
    moved = np.moveaxis(np.broadcast_to(0.0, _shape(a)), (axis1, axis2), (-2, -1)).shape
    rows, columns = moved[-2:]
    before = max(offset, 0)
    length = max(0, min(rows + min(offset, 0), columns - before))
    if length == 0:
        return np.zeros_like(g, shape=_shape(a), dtype=_grad_dtype(g))
    g = np.broadcast_to(g, (*moved[:-2], length))
    along_columns = np.pad(g, [(0, 0)] * (g.ndim - 1) + [(before, columns - length - before)])
    on_diagonal = np.arange(rows, like=g)[:, None] + offset == np.arange(columns, like=g)
    return np.moveaxis(np.where(on_diagonal, along_columns[..., None, :], 0.0), (-2, -1),
                       (axis1, axis2))


def ungather(g, x, positions):
    """Cotangent of ``x`` in a function that only copies elements of ``x`` (``x[index]``,
    ``np.pad``'s edge, reflect, wrap and symmetric modes, ``np.delete``, ``np.resize``...).
    ``positions`` is that function applied to the flat positions of ``x``'s elements: for
    each output element the position it copies, or -1 for an element that is not a copy (a
    constant). Elements copied several times collect the sum of their copies' cotangents."""
    size = element_count(x)  # (np.size would compute a Dask array)
    flat = np.ravel(positions)
    bins = np.where(flat < 0, size, flat)
    g = real_like(g, x)
    if np.iscomplexobj(g):  # np.bincount sums real weights
        return _bin_sums(bins, np.real(g), x) + 1j * _bin_sums(bins, np.imag(g), x)
    return _bin_sums(bins, g, x)


def _bin_sums(bins, g, x):
    """``g`` summed into the element of ``x`` (or the last bin, dropped) each entry names.
    A lazy ``g`` (a Dask array, whose ``bincount`` wants bins of its own chunks) is added at
    the bins as ``x[rows]``'s cotangent is (``add_at``), lazily."""
    size = element_count(x)
    if is_lazy_array(g):
        summed = np.zeros_like(g, shape=(size + 1,), dtype=_grad_dtype(g))
        add_at(summed, bins, np.ravel(g))
        return np.reshape(summed[:size], _shape(x))
    summed = np.bincount(bins, weights=np.ravel(g), minlength=size + 1)
    return astype(np.reshape(summed[:size], np.shape(x)), _grad_dtype(g))


def positions_of(x):
    """The flat position of each element of ``x``, in ``x``'s shape (see ``ungather``)."""
    return np.reshape(np.arange(_size(x)), np.shape(x))


_COPYING_PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap", "empty")


def _copying_pad(x, pad_width, mode, reflect_type, fill):
    """``np.pad(x, pad_width, mode)`` for the modes whose padding is a constant (``fill``)
    or copies of elements; the others are refused."""
    if not isinstance(mode, str) or mode not in _COPYING_PAD_MODES:
        raise NotImplementedError(
            f"sourcegrad differentiates np.pad in the modes {', '.join(_COPYING_PAD_MODES)}, "
            f"not mode={mode!r}")
    if mode in ("constant", "empty"):
        return np.pad(x, pad_width, constant_values=fill)
    if mode in ("edge", "wrap"):
        return np.pad(x, pad_width, mode=mode)
    if reflect_type != "even":
        raise NotImplementedError("sourcegrad differentiates np.pad(..., reflect_type='even') "
                                  "only (the default)")
    return np.pad(x, pad_width, mode=mode)


def unpad(g, array, pad_width, mode="constant", reflect_type="even"):
    """Cotangent of ``array`` in ``np.pad(array, pad_width, mode)``: the inner part of ``g``,
    plus (for the modes that copy edges) the cotangents of the copies."""
    positions = _copying_pad(positions_of(array), pad_width, mode, reflect_type, -1)
    return ungather(g, array, positions)


def pad_tangent(t, pad_width, mode="constant", reflect_type="even"):
    """Tangent of ``np.pad(array, pad_width, mode)`` for the tangent ``t`` of ``array``: ``t``
    padded the same way, with zeros where the padding is a constant."""
    return _copying_pad(t, pad_width, mode, reflect_type, 0)


def pad_fill_vjp(g, array, pad_width, constant_values):
    """Cotangent of ``constant_values`` in ``np.pad(array, pad_width, constant_values=...)``:
    the sum of ``g`` over the cells each value fills (one value per axis and side, NumPy's
    pairs broadcast from what was given; a later axis fills the corners)."""
    ndim = np.ndim(array)
    labels = np.reshape(np.arange(2 * ndim), (ndim, 2))
    filled_by = np.pad(np.full(np.shape(array), -1), pad_width, constant_values=labels)
    sums = np.bincount(np.ravel(filled_by) + 1, weights=np.ravel(g), minlength=2 * ndim + 1)
    return unbroadcast(astype(np.reshape(sums[1:], (ndim, 2)), _grad_dtype(g)),
                       constant_values)


def rollaxis_destination(a, axis, start=0):
    """Where ``np.rollaxis(a, axis, start)`` puts ``axis`` (so ``np.moveaxis(g,
    destination, axis)`` undoes it)."""
    ndim = np.ndim(a)
    axis = axis % ndim
    start = start + ndim if start < 0 else start
    return start - 1 if axis < start else start


def _diff_parts(a, axis, prepend, append):
    """The arrays ``np.diff`` joins along ``axis`` before differencing (a number given as
    ``prepend`` or ``append`` stands for a slice of length 1)."""
    def as_slice(value):
        if value is None:
            return None
        if np.ndim(value) == 0:
            shape = list(np.shape(a))
            shape[axis] = 1
            return np.broadcast_to(value, tuple(shape))
        return value
    return [as_slice(prepend), a, as_slice(append)]


def diff_vjp(g, which, a, n=1, axis=-1, prepend=None, append=None):
    """Cotangent of one of ``[prepend, a, append]`` (``which`` is 0, 1 or 2) in
    ``np.diff(a, n, axis, prepend, append)``. The adjoint of differencing is minus the
    difference of ``g`` padded with zeros, ``n`` times: ``(-1)**n * diff(pad(g, n), n)``, the
    cotangent of the arrays joined, of which each takes its own stretch."""
    parts = _diff_parts(a, axis, prepend, append)
    width = [(0, 0)] * np.ndim(g)
    width[axis] = (n, n)
    joined = np.diff(np.pad(g, width), n=n, axis=axis) * (-1) ** n
    lengths = [0 if p is None else np.shape(p)[axis] for p in parts]
    start = sum(lengths[:which])
    stretch = np.take(joined, np.arange(start, start + lengths[which]), axis=axis)
    return unbroadcast(stretch, [prepend, a, append][which])


def diff_tangent(t, which, a, n=1, axis=-1, prepend=None, append=None):
    """Tangent of ``np.diff(a, n, axis, prepend, append)`` for the tangent ``t`` of one of
    ``[prepend, a, append]`` (``which`` is 0, 1 or 2): the difference of the joined arrays
    with ``t`` in that place and zeros in the others."""
    parts = _diff_parts(a, axis, prepend, append)
    joined = [np.broadcast_to(t, np.shape(p)) if i == which
              else np.zeros(np.shape(p), dtype=_grad_dtype(t))
              for i, p in enumerate(parts) if p is not None]
    return np.diff(np.concatenate(joined, axis=axis), n=n, axis=axis)


def _gradient_spacings(varargs, axes):
    """One spacing (a number or an array of coordinates) per axis of ``np.gradient``."""
    if len(varargs) == 0:
        return [1.0 for _ in axes]
    if len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        return [varargs[0] for _ in axes]
    return list(varargs)


def gradient_bands(n, spacing=1.0, edge_order=1, dtype=float):
    """``bands[2 + k, i]``: the weight of element ``i + k`` (``k`` from -2 to 2) in the
    ``i``-th output of ``np.gradient`` over ``n`` elements, whatever the spacing and edge
    order: each output reads at most three neighbours, all within two places, so the
    weights are read off ``np.gradient`` of five combs (ones every fifth element)."""
    positions = np.arange(n)
    combs = np.stack([np.gradient((positions % 5 == r).astype(float), spacing,
                                  edge_order=edge_order) for r in range(5)])
    bands = np.zeros((5, n), dtype=dtype)
    for k in range(-2, 3):
        source = positions + k
        inside = (source >= 0) & (source < n)
        bands[k + 2, inside] = combs[source[inside] % 5, positions[inside]]
    return bands


def _along(vector, axis, ndim):
    """A 1-D ``vector`` shaped to broadcast along ``axis`` of an ``ndim``-dimensional array."""
    shape = [1] * ndim
    shape[axis] = -1
    return np.reshape(vector, shape)


def _gradient_axes(f, axis):
    ndim = np.ndim(f)
    return list(range(ndim)) if axis is None else [a % ndim for a in np.atleast_1d(axis)]


def gradient_vjp(g, f, varargs=(), axis=None, edge_order=1):
    """Cotangent of ``f`` in ``np.gradient(f, *varargs, axis=axis, edge_order=edge_order)``
    (``g`` one array, or one per axis): along each axis, the transpose of the banded
    difference ``gradient_bands`` describes."""
    axes = _gradient_axes(f, axis)
    cotangents = list(g) if isinstance(g, (list, tuple)) else [g]
    spacings = _gradient_spacings(varargs, axes)
    total = zeros_like_grad(f)
    for ax, g_ax, spacing in zip(axes, cotangents, spacings, strict=True):
        uniform = np.ndim(spacing) == 0  # then the result is proportional to 1 / spacing
        bands = gradient_bands(np.shape(f)[ax], 1.0 if uniform else spacing, edge_order,
                               _grad_dtype(g_ax))
        scaled = g_ax / spacing if uniform else g_ax
        for k in range(-2, 3):
            total = total + np.roll(scaled * _along(bands[k + 2], ax, np.ndim(f)), k, axis=ax)
    return total


def gradient_tangent(tangent, varargs=(), axis=None, edge_order=1):
    """``np.gradient(tangent, *varargs, axis=axis, edge_order=edge_order)``, with the
    spacings as one tuple: the tangent of ``np.gradient``'s result (it is linear in ``f``)."""
    return np.gradient(tangent, *varargs, axis=axis, edge_order=edge_order)


def _per_axis(values, n_axes):
    """One of ``values`` (one per spacing argument of ``np.gradient``, or their tangents) for
    each of ``n_axes`` axes: a single spacing serves every axis. The derivative in
    coordinates (an array of them) is refused; a uniform spacing is differentiated."""
    if any([np.ndim(h) != 0 for h in values]):
        no_derivative("np.gradient with respect to coordinates (only a uniform spacing)")
    if len(values) == 1:
        return [values[0] for _ in range(n_axes)]
    return [values[k] for k in range(n_axes)]


def gradient_spacing_vjp(g, ans, f, varargs, axis=None):
    """Cotangents of the uniform spacings of ``np.gradient``: each output is proportional to
    ``1 / h``, so its derivative in ``h`` is ``-output / h``."""
    spacings = _per_axis(varargs, len(varargs))
    outputs = list(ans) if isinstance(ans, (list, tuple)) else [ans]
    cotangents = list(g) if isinstance(g, (list, tuple)) else [g]
    terms = [np.sum(gk * out) for gk, out in zip(cotangents, outputs, strict=True)]
    if len(spacings) == 1:
        return [-sum(terms) / spacings[0]]
    return [-term / h for term, h in zip(terms, spacings, strict=True)]


def gradient_spacing_jvp(t, ans, f, varargs, axis=None):
    """Tangent of ``np.gradient``'s outputs for the tangents ``t`` of its uniform spacings
    (``None`` where zero)."""
    outputs = list(ans) if isinstance(ans, (list, tuple)) else [ans]
    tangents = [zeros_like_grad(out) if th is None else -out * (th / h) for out, th, h in
                zip(outputs, _per_axis(t, len(outputs)), _per_axis(varargs, len(outputs)),
                    strict=True)]
    return tuple(tangents) if isinstance(ans, (list, tuple)) else tangents[0]


def no_derivative(what):
    """Raise for an argument whose derivative sourcegrad does not compute (it is refused,
    never taken as zero)."""
    raise NotImplementedError(f"sourcegrad does not differentiate {what}; make it a constant "
                              "(sg.stop_gradient) or register a rule with @sg.defvjp")


def _cross_axes(axisa, axisb, axisc, axis):
    return (axisa, axisb, axisc) if axis is None else (axis, axis, axis)


def _vector_axis_from_end(shape, other_shape, axis, other_axis):
    """``axis`` of an array of ``shape`` counted from the end; 2-vectors are refused."""
    if shape[axis] != 3 or other_shape[other_axis] != 3:
        raise NotImplementedError("sourcegrad differentiates np.cross of 3-vectors only "
                                  "(NumPy 2 deprecates 2-vectors)")
    return axis % len(shape) - len(shape)


def cross_vjp_a(g, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cotangent of ``a`` in ``np.cross(a, b, ...)``: ``<g, a x b> = <a, b x g>``, with the
    result's vector axis where ``a`` has it (counted from the end, so that broadcast
    dimensions sum away)."""
    axisa, axisb, axisc = _cross_axes(axisa, axisb, axisc, axis)
    end = _vector_axis_from_end(np.shape(a), np.shape(b), axisa, axisb)
    return unbroadcast(np.cross(b, g, axisa=axisb, axisb=axisc, axisc=end), a)


def cross_vjp_b(g, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cotangent of ``b`` in ``np.cross(a, b, ...)``: ``<g, a x b> = <b, g x a>``."""
    axisa, axisb, axisc = _cross_axes(axisa, axisb, axisc, axis)
    end = _vector_axis_from_end(np.shape(b), np.shape(a), axisb, axisa)
    return unbroadcast(np.cross(g, a, axisa=axisc, axisb=axisa, axisc=end), b)


def select_masks(condlist):
    """Where ``np.select(condlist, choicelist, default)`` takes each choice (the first true
    condition wins), and last where it takes ``default``."""
    taken = np.zeros(np.broadcast_shapes(*[np.shape(c) for c in condlist]), dtype=bool)
    masks = []
    for condition in condlist:
        masks.append(condition & ~taken)
        taken = taken | condition
    return [*masks, ~taken]


def as_column(x):
    """What ``np.column_stack`` and ``np.c_`` make of each item: a number or a 1-D array
    becomes a column, an array of 2 or more dimensions stays as it is."""
    return np.reshape(x, (-1, 1)) if np.ndim(x) < 2 else x


def block_shape(arrays, depth=None, ndim=None):
    """The shape of ``np.block(arrays)``, worked out from the shapes of its leaves."""
    if depth is None:
        depth, ndim = _block_depth_and_ndim(arrays)
    if not isinstance(arrays, list):
        return (1,) * (ndim - np.ndim(arrays)) + np.shape(arrays)
    shapes = [block_shape(a, depth - 1, ndim) for a in arrays]
    axis = ndim - depth
    return shapes[0][:axis] + (sum(s[axis] for s in shapes),) + shapes[0][axis + 1:]


def _block_depth_and_ndim(arrays):
    depth, node = 0, arrays
    while isinstance(node, list):
        depth, node = depth + 1, node[0]
    leaves = [arrays]
    ndim = 0
    while leaves:
        leaf = leaves.pop()
        if isinstance(leaf, list):
            leaves.extend(leaf)
        else:
            ndim = max(ndim, np.ndim(leaf))
    return depth, max(depth, ndim)


def unblock(cotangent, arrays, depth=None, ndim=None):
    """Cotangent of the nested lists ``arrays`` in ``np.block(arrays)``: ``g`` cut along the
    axis of each level of nesting (the innermost lists join along the last axis), each leaf's
    piece with the leaf's own shape."""
    if depth is None:
        depth, ndim = _block_depth_and_ndim(arrays)
    if not isinstance(arrays, list):
        return np.reshape(cotangent, np.shape(arrays))
    axis = ndim - depth
    ends = np.cumsum([block_shape(a, depth - 1, ndim)[axis] for a in arrays])
    pieces = np.split(cotangent, ends[:-1], axis=axis)
    return [unblock(piece, a, depth - 1, ndim) for piece, a in zip(pieces, arrays, strict=True)]


# ---------------------------------------------------------------------- products and linalg


def _tensordot_axes(axes, ndim_a, ndim_b):
    """``np.tensordot``'s ``axes`` as two lists of non-negative axes of ``a`` and ``b``."""
    if not isinstance(axes, (list, tuple)) and np.ndim(axes) == 0:
        return list(range(ndim_a - axes, ndim_a)), list(range(axes))
    axes_a, axes_b = [ax if isinstance(ax, (list, tuple)) else np.atleast_1d(ax) for ax in axes]
    return [int(i) % ndim_a for i in axes_a], [int(i) % ndim_b for i in axes_b]


def _in_axis_order(grad, keys):
    """``grad`` with its axes sorted by ``keys`` (one per axis; distinct): as it is when
    they are sorted already, the common case (a kernel's gradient in a loop)."""
    order = sorted(range(len(keys)), key=keys.__getitem__)
    return grad if order == list(range(len(keys))) else np.transpose(grad, order)


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
    return _in_axis_order(grad, free_a + paired)


def tensordot_vjp_b(g, a, b, axes=2):
    """Cotangent of ``b`` in ``np.tensordot(a, b, axes)`` (see ``tensordot_vjp_a``)."""
    axes_a, axes_b = _tensordot_axes(axes, np.ndim(a), np.ndim(b))
    free_a = [i for i in range(np.ndim(a)) if i not in axes_a]
    g_free_a = list(range(len(free_a)))
    grad = np.tensordot(a, g, axes=(free_a, g_free_a))
    free_b = [i for i in range(np.ndim(b)) if i not in axes_b]
    paired = [axes_b[axes_a.index(k)] for k in sorted(axes_a)]
    return _in_axis_order(grad, paired + free_b)


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
    is_complex = np.iscomplexobj(x)
    _refuse_complex(is_complex, "np.linalg.norm")
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
    is_complex = np.iscomplexobj(ans)
    _refuse_complex(is_complex, "np.linalg.cholesky")
    low = _transpose(ans) if upper else ans
    g_low = _transpose(g) if upper else g
    inv = np.linalg.inv(low)
    return _symmetric_part(_transpose(inv) @ _eliminated_lower(_transpose(low) @ g_low) @ inv)


def cholesky_jvp(t, ans, upper=False):
    """Tangent of ``L = np.linalg.cholesky(a)``: ``L Phi(L^-1 sym(t) L^-T)``."""
    is_complex = np.iscomplexobj(ans)
    _refuse_complex(is_complex, "np.linalg.cholesky")
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
    is_complex = np.iscomplexobj(ans[1])
    _refuse_complex(is_complex, "np.linalg.eigh")
    g_w, g_v = g
    w, v = ans
    diagonal = np.expand_dims(g_w, -1) * np.eye(np.shape(w)[-1], dtype=bool)
    inner = diagonal + _eigengap_inverse(w) * (_transpose(v) @ g_v)
    return _symmetric_part(v @ inner @ _transpose(v))


def eigh_jvp(t, ans):
    """Tangent of ``(w, v) = np.linalg.eigh(a)``: ``dw = diag(v^T sym(t) v)``,
    ``dv = v (F * (v^T sym(t) v))``."""
    is_complex = np.iscomplexobj(ans[1])
    _refuse_complex(is_complex, "np.linalg.eigh")
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


def arange_start_weight(stop):
    """1 where ``np.arange``'s first argument is its start (``stop`` given: every value moves
    with it), 0 where it is the stop (``np.arange(stop)``: the count is piecewise constant,
    the values do not move)."""
    return 0.0 if stop is None else 1.0


def arange_steps(ans):
    """How many steps each value of ``np.arange(...)`` is from the start: its share of
    ``step``."""
    return np.arange(np.size(ans), dtype=_grad_dtype(ans))


def along_samples(t, ans, axis=0):
    """The tangent ``t`` of ``np.linspace``'s ``start`` or ``stop``, broadcast to the shape
    of one sample and given a length-1 ``axis`` so it broadcasts against ``ans``."""
    sample_shape = np.delete(np.shape(ans), axis % np.ndim(ans))
    return np.expand_dims(np.broadcast_to(t, tuple(sample_shape)), axis)


def astype(x, dtype):
    """``x.astype(dtype)`` as a function (also for Python numbers), so that the cast has a
    rule of its own."""
    return np.asarray(x).astype(dtype) if not hasattr(x, "astype") else x.astype(dtype)


# ------------------------------------------------------------------------- Python builtins


def _extreme_candidates(args):
    """What Python's ``max``/``min`` chose among: its arguments, or the items of its one
    argument."""
    return list(args[0]) if len(args) == 1 else list(args)


def extreme_vjp(g, ans, args):
    """Cotangents of the arguments of Python's ``max(*args)``/``min(*args)`` (or of the items
    of its single argument), ``g`` shared evenly among the ties for the result, as for
    ``np.max``."""
    ties = [float(a == ans) for a in _extreme_candidates(args)]
    count = sum(ties)
    shares = [g * tie / count for tie in ties]
    if len(args) > 1:
        return shares
    return [np.asarray(shares) if isinstance(args[0], np.ndarray) else shares]


def extreme_jvp(t, ans, args):
    """Tangent of Python's ``max(*args)``/``min(*args)``: the mean of the tangents of the
    tied winners (``t`` holds one tangent per argument, ``None`` for zero)."""
    candidates = _extreme_candidates(args)
    tangents = _extreme_candidates(t) if t[0] is not None or len(t) > 1 else [None] * len(
        candidates)
    ties = [float(a == ans) for a in candidates]
    return sum([tie * tc for tie, tc in zip(ties, tangents, strict=True)
                if tc is not None]) / sum(ties)


# ------------------------------------------------------------------ decompositions, continued


def _matrix_diag(v):
    """Stacks of diagonal matrices with ``v`` (..., k) on their diagonals."""
    return np.expand_dims(v, -1) * np.eye(np.shape(v)[-1], dtype=_grad_dtype(v))


def _diagonal_of(x):
    return np.diagonal(x, axis1=-2, axis2=-1)


def _square_gap_inverse(s):
    """``F[..., i, j] = 1 / (s[j]**2 - s[i]**2)`` off the diagonal, 0 on it (infinite where
    two singular values are equal: the singular vectors are then not differentiable)."""
    return _eigengap_inverse(s * s)


def _refuse_full_extra_columns(shape, full_matrices):
    """``full_matrices=True`` with a non-square input adds columns to ``u`` (or rows to
    ``vh``) that only span a complement: not unique, so not differentiable."""
    if full_matrices and shape[-1] != shape[-2]:
        raise NotImplementedError(
            "sourcegrad differentiates np.linalg.svd(a, full_matrices=True) of square "
            "matrices only (the extra singular vectors of a non-square matrix are not unique); "
            "pass full_matrices=False")


def svd_vjp(g, ans, a, full_matrices=True, compute_uv=True):
    """Cotangent of ``a`` in ``np.linalg.svd(a, full_matrices, compute_uv)`` (Townsend,
    2016), for distinct nonzero singular values: ``u [(F o (u'gu - gu'u)) s + diag(gs) +
    s (F o (v'gv - gv'v))] v' + (I - uu') gu s^-1 v' + u s^-1 gv' (I - vv')``."""
    is_complex = np.iscomplexobj(a)
    _refuse_complex(is_complex, "np.linalg.svd")
    if not compute_uv:
        u, _, vh = np.linalg.svd(a, full_matrices=False)
        return (u * np.expand_dims(g, -2)) @ vh
    shape = np.shape(a)
    _refuse_full_extra_columns(shape, full_matrices)
    u, s, vh = ans
    g_u, g_s, g_vh = g
    v, g_v = _transpose(vh), _transpose(g_vh)
    gaps = _square_gap_inverse(s)
    u_gu, v_gv = _transpose(u) @ g_u, _transpose(v) @ g_v
    inner = ((gaps * (u_gu - _transpose(u_gu))) * np.expand_dims(s, -2) + _matrix_diag(g_s)
             + np.expand_dims(s, -1) * (gaps * (v_gv - _transpose(v_gv))))
    grad = u @ inner @ vh
    if np.shape(a)[-2] > np.shape(s)[-1]:  # more rows than singular values
        grad = grad + (g_u - u @ u_gu) @ (vh / np.expand_dims(s, -1))
    if np.shape(a)[-1] > np.shape(s)[-1]:  # more columns
        grad = grad + (u / np.expand_dims(s, -2)) @ _transpose(g_v - v @ v_gv)
    return grad


def svd_jvp(t, ans, a, full_matrices=True, compute_uv=True):
    """Tangent of ``np.linalg.svd(a, ...)``: with ``p = u' t v``, ``ds = diag(p)``,
    ``du = u (F o (p s + s p')) + (I - uu') t v s^-1`` and ``dv`` alike with ``t'``."""
    is_complex = np.iscomplexobj(a)
    _refuse_complex(is_complex, "np.linalg.svd")
    if not compute_uv:
        u, _, vh = np.linalg.svd(a, full_matrices=False)
        return _diagonal_of(_transpose(u) @ t @ _transpose(vh))
    shape = np.shape(a)
    _refuse_full_extra_columns(shape, full_matrices)
    u, s, vh = ans
    v = _transpose(vh)
    p = _transpose(u) @ t @ v
    gaps = _square_gap_inverse(s)
    s_row, s_col = np.expand_dims(s, -2), np.expand_dims(s, -1)
    du = u @ (gaps * (p * s_row + s_col * _transpose(p)))
    dv = v @ (gaps * (s_col * p + _transpose(p) * s_row))
    if np.shape(a)[-2] > np.shape(s)[-1]:
        du = du + (t @ v - u @ p) / s_row
    if np.shape(a)[-1] > np.shape(s)[-1]:
        dv = dv + (_transpose(t) @ u - v @ _transpose(p)) / s_row
    return du, _diagonal_of(p), _transpose(dv)


def pinv_vjp(g, ans, a):
    """Cotangent of ``a`` in ``p = np.linalg.pinv(a)`` (for a locally constant rank):
    ``-p' g p' + (I - a p) g' p p' + p' p g' (I - p a)``."""
    is_complex = np.iscomplexobj(a)
    _refuse_complex(is_complex, "np.linalg.pinv")
    p, p_t, g_t = ans, _transpose(ans), _transpose(g)
    left = g_t - a @ (p @ g_t)  # (I - a p) g'
    right = g_t - (g_t @ p) @ a  # g' (I - p a)
    return -(p_t @ g @ p_t) + left @ (p @ p_t) + (p_t @ p) @ right


def pinv_jvp(t, ans, a):
    """Tangent of ``p = np.linalg.pinv(a)``: ``-p t p + p p' t' (I - a p) + (I - p a) t' p' p``."""
    is_complex = np.iscomplexobj(a)
    _refuse_complex(is_complex, "np.linalg.pinv")
    p, p_t, t_t = ans, _transpose(ans), _transpose(t)
    return (-(p @ t @ p) + (p @ p_t) @ (t_t - (t_t @ a) @ p)
            + (t_t - p @ (a @ t_t)) @ (p_t @ p))


def _refuse_complex_eigenvalues(is_complex, what):
    if is_complex:
        raise NotImplementedError(
            f"sourcegrad differentiates {what} where every eigenvalue is real (here some are "
            "complex); for a symmetric matrix use np.linalg.eigh")


def _unit_columns_adjoint(x, v):
    """The derivative of normalizing the columns of ``v`` to unit length, applied to ``x``
    (self-adjoint): ``x`` less its component along each column."""
    return x - v * np.sum(v * x, axis=-2, keepdims=True)


def eig_vjp(g, ans):
    """Cotangent of ``a`` in ``w, v = np.linalg.eig(a)``, for real distinct eigenvalues and
    LAPACK's unit eigenvectors: ``v^-T (diag(g_w) + F o (v' N(g_v))) v'``, ``F`` the inverse
    eigengaps and ``N`` the adjoint of the normalization."""
    w, v = ans
    g_w, g_v = g
    is_complex = np.iscomplexobj(w)
    _refuse_complex_eigenvalues(is_complex, "np.linalg.eig")
    inner = _matrix_diag(g_w) + _eigengap_inverse(w) * (_transpose(v) @ _unit_columns_adjoint(
        g_v, v))
    return np.linalg.solve(_transpose(v), inner @ _transpose(v))


def eig_jvp(t, ans):
    """Tangent of ``w, v = np.linalg.eig(a)``: with ``c = v^-1 t v``, ``dw = diag(c)`` and
    ``dv = N(v (F o c))``."""
    w, v = ans
    is_complex = np.iscomplexobj(w)
    _refuse_complex_eigenvalues(is_complex, "np.linalg.eig")
    c = np.linalg.solve(v, t @ v)
    return _diagonal_of(c), _unit_columns_adjoint(v @ (_eigengap_inverse(w) * c), v)


def eigvals_vjp(g, a):
    """Cotangent of ``a`` in ``np.linalg.eigvals(a)`` (real eigenvalues): ``v^-T diag(g) v'``."""
    w, v = np.linalg.eig(a)
    is_complex = np.iscomplexobj(w)
    _refuse_complex_eigenvalues(is_complex, "np.linalg.eigvals")
    return np.linalg.solve(_transpose(v), _matrix_diag(g) @ _transpose(v))


def eigvals_jvp(t, a):
    """Tangent of ``np.linalg.eigvals(a)``: ``diag(v^-1 t v)``."""
    w, v = np.linalg.eig(a)
    is_complex = np.iscomplexobj(w)
    _refuse_complex_eigenvalues(is_complex, "np.linalg.eigvals")
    return _diagonal_of(np.linalg.solve(v, t @ v))


def eigvalsh_vjp(g, a, UPLO="L"):
    """Cotangent of ``a`` in ``np.linalg.eigvalsh(a)``: ``v diag(g) v'`` (symmetric)."""
    is_complex = np.iscomplexobj(a)
    _refuse_complex(is_complex, "np.linalg.eigvalsh")
    _, v = np.linalg.eigh(a, UPLO=UPLO)
    return (v * np.expand_dims(g, -2)) @ _transpose(v)


def eigvalsh_jvp(t, a, UPLO="L"):
    """Tangent of ``np.linalg.eigvalsh(a)``: ``diag(v' sym(t) v)``."""
    is_complex = np.iscomplexobj(a)
    _refuse_complex(is_complex, "np.linalg.eigvalsh")
    _, v = np.linalg.eigh(a, UPLO=UPLO)
    return _diagonal_of(_transpose(v) @ _symmetric_part(t) @ v)


def _as_matrix(b):
    """A 1-D right-hand side as one column."""
    return np.expand_dims(b, -1) if np.ndim(b) == 1 else b


def lstsq_vjp_a(g, ans, a, b):
    """Cotangent of ``a`` in ``x, residuals, rank, s = np.linalg.lstsq(a, b)``: ``x`` is
    ``pinv(a) @ b``; the residuals are minimal in ``x``, so their derivative in ``a`` is
    ``-2 (b - a x) x'``; ``s`` are ``a``'s singular values."""
    g_x, g_res, _, g_s = g
    x, _, _, _ = ans
    p = np.linalg.pinv(a)
    grad = pinv_vjp(_as_matrix(g_x) @ _transpose(_as_matrix(b)), p, a)
    grad = grad + svd_vjp(g_s, None, a, compute_uv=False)
    if np.size(g_res) > 0:  # residuals are reported (full column rank, more rows)
        residual = _as_matrix(b) - a @ _as_matrix(x)
        grad = grad - 2 * (residual * g_res) @ _transpose(_as_matrix(x))
    return grad


def lstsq_vjp_b(g, ans, a, b):
    """Cotangent of ``b`` in ``np.linalg.lstsq(a, b)``: ``pinv(a)' g_x + 2 (b - a x) g_res``."""
    g_x, g_res, _, _ = g
    x, _, _, _ = ans
    grad = _transpose(np.linalg.pinv(a)) @ _as_matrix(g_x)
    if np.size(g_res) > 0:  # residuals are reported (full column rank, more rows)
        grad = grad + 2 * (_as_matrix(b) - a @ _as_matrix(x)) * g_res
    return np.reshape(grad, np.shape(b))


def lstsq_jvp_a(t, ans, a, b):
    """Tangent of ``np.linalg.lstsq(a, b)``'s results for the tangent ``t`` of ``a``."""
    x, residuals, rank, _ = ans
    p = np.linalg.pinv(a)
    dx = np.reshape(pinv_jvp(t, p, a) @ _as_matrix(b), np.shape(x))
    d_res = np.zeros_like(residuals)
    if np.size(residuals) > 0:
        d_res = -2 * np.sum((_as_matrix(b) - a @ _as_matrix(x)) * (t @ _as_matrix(x)), axis=0)
    return dx, d_res, np.zeros(np.shape(rank)), svd_jvp(t, None, a, compute_uv=False)


def lstsq_jvp_b(t, ans, a, b):
    """Tangent of ``np.linalg.lstsq(a, b)``'s results for the tangent ``t`` of ``b``."""
    x, residuals, rank, s = ans
    dx = np.reshape(np.linalg.pinv(a) @ _as_matrix(t), np.shape(x))
    d_res = np.zeros_like(residuals)
    if np.size(residuals) > 0:
        d_res = 2 * np.sum((_as_matrix(b) - a @ _as_matrix(x)) * _as_matrix(t), axis=0)
    return dx, d_res, np.zeros(np.shape(rank)), np.zeros_like(s)


def matrix_power_vjp(g, a, n):
    """Cotangent of ``a`` in ``np.linalg.matrix_power(a, n)``: with ``b = a`` (``inv(a)`` for
    ``n < 0``, ``m = |n|``), ``sum_k (b')^k g (b')^(m-1-k)``, then through the inverse."""
    base = np.linalg.inv(a) if n < 0 else a
    m = abs(n)
    powers = [np.broadcast_to(np.eye(np.shape(a)[-1], dtype=_grad_dtype(a)), np.shape(a))]
    for _ in range(m - 1):
        powers.append(powers[-1] @ _transpose(base))
    total = zeros_like_grad(a)
    for k in range(m):
        total = total + powers[k] @ g @ powers[m - 1 - k]
    if n < 0:
        total = -(_transpose(base) @ total @ _transpose(base))
    return total


def matrix_power_jvp(t, a, n):
    """Tangent of ``np.linalg.matrix_power(a, n)``: ``sum_k b^k db b^(m-1-k)`` with ``b``,
    ``m`` as in ``matrix_power_vjp`` and ``db`` the tangent of ``b``."""
    base = np.linalg.inv(a) if n < 0 else a
    m = abs(n)
    d_base = -(base @ t @ base) if n < 0 else t
    powers = [np.broadcast_to(np.eye(np.shape(a)[-1], dtype=_grad_dtype(a)), np.shape(a))]
    for _ in range(m - 1):
        powers.append(powers[-1] @ base)
    total = zeros_like_grad(a)
    for k in range(m):
        total = total + powers[k] @ d_base @ powers[m - 1 - k]
    return total


def _chain_factors(arrays):
    """The factors of ``np.linalg.multi_dot(arrays)`` as matrices (a 1-D first factor is a
    row, a 1-D last factor a column)."""
    last = len(arrays) - 1
    return [np.expand_dims(x, 0) if i == 0 and np.ndim(x) == 1 else
            np.expand_dims(x, -1) if i == last and np.ndim(x) == 1 else x
            for i, x in enumerate(arrays)]


def multi_dot_vjp(g, arrays):
    """Cotangents of the factors of ``np.linalg.multi_dot(arrays)``: for each, the product of
    the factors before it (transposed), ``g``, and those after it (transposed)."""
    factors = _chain_factors(arrays)
    g_matrix = np.reshape(g, (np.shape(factors[0])[0], np.shape(factors[-1])[-1]))
    befores = [np.eye(np.shape(factors[0])[0], dtype=_grad_dtype(g))]
    for x in factors[:-1]:
        befores.append(befores[-1] @ x)
    afters = [np.eye(np.shape(factors[-1])[-1], dtype=_grad_dtype(g))]
    for x in factors[:0:-1]:
        afters.append(x @ afters[-1])
    n = len(factors)
    return [np.reshape(_transpose(befores[i]) @ g_matrix @ _transpose(afters[n - 1 - i]),
                       np.shape(arrays[i])) for i in range(n)]


def multi_dot_jvp(t, arrays):
    """Tangent of ``np.linalg.multi_dot(arrays)``: the sum of the products with one factor
    replaced by its tangent (``t`` holds one per factor)."""
    return sum([np.linalg.multi_dot(_replaced(arrays, k, tk)) for k, tk in enumerate(t)])


def _copy_lower_to_upper(m):
    """The symmetric matrix with ``m``'s lower triangle (diagonal included)."""
    lower = np.tril(m, -1)
    return lower + _transpose(lower) + _matrix_diag(_diagonal_of(m))


def _qr_mode(mode, shape):
    if mode not in ("reduced", "complete", "r"):
        raise NotImplementedError(f"sourcegrad differentiates np.linalg.qr in the modes "
                                  f"'reduced', 'complete' and 'r', not {mode!r}")
    if mode == "complete" and shape[-2] > shape[-1]:
        raise NotImplementedError("sourcegrad differentiates np.linalg.qr(a, 'complete') of "
                                  "matrices with no more rows than columns (the extra columns "
                                  "of q are not unique); use mode='reduced'")


def _qr_square_vjp(g_q, g_r, q, r):
    """Cotangent of the square part ``x = q r`` (``r`` square upper triangular):
    ``(g_q + q copyltu(m)) r^-T`` with ``m = r g_r' - g_q' q`` (Liao et al., 2019)."""
    m = r @ _transpose(g_r) - _transpose(g_q) @ q
    b = g_q + q @ _copy_lower_to_upper(m)
    return _transpose(np.linalg.solve(r, _transpose(b)))


def qr_vjp(g, ans, a, mode="reduced"):
    """Cotangent of ``a`` in ``np.linalg.qr(a, mode)``; a wide ``a = [x | y]`` is ``q [u | v]``
    with ``y = q v``, whose cotangent is ``q g_v`` and adds ``y g_v'`` to ``g_q``."""
    is_complex = np.iscomplexobj(a)
    _refuse_complex(is_complex, "np.linalg.qr")
    shape = np.shape(a)
    _qr_mode(mode, shape)
    if mode == "r":
        q, r = np.linalg.qr(a)
        g_q, g_r = zeros_like_grad(q), g
    else:
        q, r = ans
        g_q, g_r = g
    m, n = np.shape(a)[-2], np.shape(a)[-1]
    if m >= n:
        return _qr_square_vjp(g_q, g_r, q, r)
    y, g_v = a[..., :, m:], g_r[..., :, m:]
    grad_x = _qr_square_vjp(g_q + y @ _transpose(g_v), g_r[..., :, :m], q, r[..., :, :m])
    return np.concatenate([grad_x, q @ g_v], axis=-1)


def _qr_square_jvp(t, q, r):
    """Tangents ``(dq, dr)`` of the square part: ``c = q' t r^-1``, ``o = tril(c, -1) -
    tril(c, -1)'`` (so ``q' dq``), ``dr = (c - o) r``, ``dq = q o + (t - q q' t) r^-1``."""
    t_over_r = _transpose(np.linalg.solve(_transpose(r), _transpose(t)))  # t r^-1
    c = _transpose(q) @ t_over_r
    lower = np.tril(c, -1)
    omega = lower - _transpose(lower)
    return q @ omega + t_over_r - q @ c, (c - omega) @ r


def qr_jvp(t, ans, a, mode="reduced"):
    """Tangent of ``np.linalg.qr(a, mode)`` (see ``qr_vjp`` for wide matrices)."""
    is_complex = np.iscomplexobj(a)
    _refuse_complex(is_complex, "np.linalg.qr")
    shape = np.shape(a)
    _qr_mode(mode, shape)
    q, r = np.linalg.qr(a) if mode == "r" else ans
    m, n = np.shape(a)[-2], np.shape(a)[-1]
    if m >= n:
        dq, dr = _qr_square_jvp(t, q, r)
    else:
        dq, dr_x = _qr_square_jvp(t[..., :, :m], q, r[..., :, :m])
        dv = _transpose(dq) @ a[..., :, m:] + _transpose(q) @ t[..., :, m:]
        dr = np.concatenate([dr_x, dv], axis=-1)
    return dr if mode == "r" else (dq, dr)


def vector_norm_derivative(x, ans, ord=2, axis=None):
    """d ``np.linalg.vector_norm(x, axis, ord=ord)`` / dx: ``x`` flattened when ``axis`` is
    ``None``, and a vector norm even over two axes."""
    axes = _axes(axis, np.ndim(x))
    kept = [1 if i in axes else n for i, n in enumerate(np.shape(x))]
    return _vector_norm_derivative(x, np.reshape(ans, kept), ord, axes)


# ------------------------------------------------------------------------ complex numbers
# JAX's convention: a cotangent ``c`` of a complex value pairs with a tangent ``t`` as
# ``Re(sum(c * t))`` (no conjugate), so the rules of holomorphic functions hold unchanged
# for complex values; a real value's cotangent is real.


def discrete_dtype(dtype):
    """Does ``dtype`` hold integers or booleans, whose values keep no derivative? (An
    object array's floats do, so ``object`` is not one.)"""
    return dtype is not None and np.dtype(dtype).kind in "biu"


def through_cast(d, dtype):
    """``d``, a cotangent or tangent passing a cast to ``dtype`` that the text does not
    name (``x.astype(y.dtype)``, ``np.sum(x, dtype=kind)``): zero where ``dtype`` is an
    integer or boolean one, whose values hold no derivative (as in JAX and PyTorch); where
    the text names the dtype, the transformer knows it, and writes no such call."""
    return zeros_like_grad(d) if discrete_dtype(dtype) else d


def written_into(d, into):
    """``d``, the cotangent (or tangent) of values written into the array ``into``
    (``into[i] = v``): zero where ``into`` holds integers or booleans, which keep nothing of a
    written value's derivative (``v`` is truncated); otherwise ``d`` itself, copied if it is
    a view (of the cotangent the adjoint zeroes next). Generated code calls it where the
    text does not tell that ``into`` is a float array (``a = np.zeros(n)`` does)."""
    if discrete_dtype(getattr(into, "dtype", None)):
        return zeros_like_grad(d)
    return np.copy(d) if isinstance(d, np.ndarray) and d.base is not None else d


def real_like(g, x):
    """``g`` as the cotangent of ``x``: its real part if ``x`` is real."""
    return np.real(g) if np.iscomplexobj(g) and not np.iscomplexobj(x) else g


def _unit_conj(z):
    """``conj(z) / |z|`` (0 at 0), spelled with differentiable operations (``np.sign`` of a
    complex number is not piecewise constant)."""
    return np.conj(z) / np.where(z == 0, 1, np.abs(z))


def abs_vjp(g, x):
    """Cotangent of ``x`` in ``np.abs(x)``: ``g * sign(x)``, the derivative taken as 0 at 0
    (PyTorch's); for complex ``x``, ``Re(g) * conj(x) / |x|``."""
    if np.iscomplexobj(x):
        return np.real(g) * _unit_conj(x)
    return g * np.sign(x)


def abs_jvp(t, x):
    """Tangent of ``np.abs(x)``: ``t * sign(x)``; for complex ``x``, ``Re(conj(x) t) / |x|``."""
    if np.iscomplexobj(x):
        return np.real(_unit_conj(x) * t)
    return t * np.sign(x)


def sign_vjp(g, x):
    """``np.sign`` is piecewise constant on real values: its cotangent is 0 (as PyTorch's
    ``SignBackward``); on complex values it is ``z / |z|``, whose derivative sourcegrad does
    not compute."""
    is_complex = np.iscomplexobj(x)
    _refuse_complex(is_complex, "np.sign")
    return np.zeros_like(g)


def imag_vjp(g, val):
    """Cotangent of ``val`` in ``np.imag(val)``: ``-1j * Re(g)`` (0 for a real value)."""
    if np.iscomplexobj(val):
        return -1j * np.real(g)
    return np.zeros_like(np.real(g))


def imag_jvp(t, val):
    return np.imag(t) if np.iscomplexobj(val) else np.zeros_like(np.real(t))


def _angle_scale(deg):
    return 180 / np.pi if deg else 1.0


def angle_vjp(g, z, deg=False):
    """Cotangent of ``z`` in ``np.angle(z)``: ``-1j * Re(g) * conj(z) / |z|**2`` (0 for a real
    value: its angle is piecewise constant)."""
    if np.iscomplexobj(z):
        return -1j * np.real(g) * _angle_scale(deg) * np.conj(z) / (np.real(z) ** 2
                                                                    + np.imag(z) ** 2)
    return np.zeros_like(np.real(g))


def angle_jvp(t, z, deg=False):
    """Tangent of ``np.angle(z)``: ``Im(conj(z) t) / |z|**2``."""
    if np.iscomplexobj(z):
        return np.imag(np.conj(z) * t) * _angle_scale(deg) / (np.real(z) ** 2
                                                             + np.imag(z) ** 2)
    return np.zeros_like(np.real(t))


# -------------------------------------------------------------------------------- np.fft


def _fit(x, n, axis):
    """``x`` cropped or zero-padded to length ``n`` along ``axis`` (what the FFTs do to their
    input given ``n``)."""
    length = np.shape(x)[axis]
    if n == length:
        return x
    if n < length:
        return np.take(x, np.arange(n), axis=axis)
    width = [(0, 0)] * np.ndim(x)
    width[axis] = (0, n - length)
    return np.pad(x, width)


def _fft_axes(x, s, axes, default_axes):
    """The axes and lengths of an n-dimensional FFT of ``x``, as NumPy works them out."""
    if axes is None:
        axes = default_axes if default_axes is not None else (
            list(range(np.ndim(x))) if s is None else list(range(-len(s), 0)))
    axes = [a % np.ndim(x) for a in axes]
    lengths = [np.shape(x)[a] for a in axes] if s is None else list(s)
    return axes, lengths


def swapped_norm(norm):
    """The FFT normalization of the other direction (``hfft`` is an ``irfft``)."""
    return {None: "forward", "backward": "forward", "forward": "backward"}.get(norm, norm)


def fft_vjp(g, x, n=None, axis=-1, norm=None, inverse=False):
    """Cotangent of ``x`` in ``np.fft.fft(x, n, axis, norm)`` (``ifft`` with ``inverse``):
    the transform is symmetric, so its transpose is itself, then the input's cropping or
    padding undone."""
    grad = np.fft.ifft(g, axis=axis, norm=norm) if inverse else np.fft.fft(g, axis=axis,
                                                                           norm=norm)
    return real_like(_fit(grad, np.shape(x)[axis], axis), x)


def fftn_vjp(g, x, s=None, axes=None, norm=None, inverse=False, default_axes=None):
    """Cotangent of ``x`` in ``np.fft.fftn(x, s, axes, norm)`` (``ifftn``, and ``fft2`` and
    ``ifft2`` with ``default_axes=(-2, -1)``)."""
    axes, _ = _fft_axes(x, s, axes, default_axes)
    grad = np.fft.ifftn(g, axes=axes, norm=norm) if inverse else np.fft.fftn(g, axes=axes,
                                                                             norm=norm)
    for a in axes:
        grad = _fit(grad, np.shape(x)[a], a)
    return real_like(grad, x)


def _inverse_scale(n, norm):
    """The factor of the inverse transform of length ``n`` under ``norm``."""
    if norm == "ortho":
        return 1 / np.sqrt(n)
    return 1.0 if norm == "forward" else 1 / n


def rfft_vjp(g, x, n=None, axis=-1, norm=None):
    """Cotangent of the real ``x`` in ``np.fft.rfft(x, n, axis, norm)``: the half spectrum's
    transpose is the full forward transform of ``g`` padded with zeros, real part."""
    n = np.shape(x)[axis] if n is None else n
    full = np.fft.fft(_fit(g, n, axis), axis=axis, norm=norm)
    return np.real(_fit(full, np.shape(x)[axis], axis))


def _half_spectrum_weights(n, m, axis, ndim):
    """1 for the terms of an inverse real FFT of length ``n`` that stand once (zero
    frequency, and Nyquist for even ``n``), 2 for those that stand for a conjugate pair, over
    ``m`` frequencies, shaped along ``axis``."""
    k = np.arange(m)
    weights = np.where((k == 0) | (2 * k == n), 1.0, 2.0)
    shape = [1] * ndim
    shape[axis] = m
    return np.reshape(weights, shape)


def irfft_vjp(g, a, n=None, axis=-1, norm=None):
    """Cotangent of ``a`` in ``np.fft.irfft(a, n, axis, norm)``: each frequency's weight
    (1 or 2) times the conjugate forward transform of ``Re(g)``, scaled as the inverse is."""
    axis = axis % np.ndim(a)
    g = np.real(g)
    n = np.shape(g)[axis]
    spectrum = np.conj(np.fft.rfft(g, axis=axis))
    m = np.shape(spectrum)[axis]
    grad = spectrum * (_half_spectrum_weights(n, m, axis, np.ndim(g)) * _inverse_scale(n, norm))
    return _fit(grad, np.shape(a)[axis], axis)


def _complex_like(shape):
    """A complex array of ``shape`` that takes no memory: what a helper needs to know of an
    intermediate spectrum (its shape, and that it is complex)."""
    return np.broadcast_to(np.zeros((), dtype=complex), tuple(shape))


def rfftn_vjp(g, x, s=None, axes=None, norm=None, default_axes=None):
    """Cotangent of ``x`` in ``np.fft.rfftn(x, s, axes, norm)`` (``rfft2`` with
    ``default_axes=(-2, -1)``): an ``rfft`` over the last axis, then an ``fftn`` over the
    others, transposed in the reverse order."""
    axes, lengths = _fft_axes(x, s, axes, default_axes)
    grad = g
    if len(axes) > 1:
        half = list(np.shape(x))
        half[axes[-1]] = lengths[-1] // 2 + 1
        grad = fftn_vjp(g, _complex_like(half), lengths[:-1], axes[:-1], norm)
    return rfft_vjp(grad, x, lengths[-1], axes[-1], norm)


def irfftn_vjp(g, a, s=None, axes=None, norm=None, default_axes=None):
    """Cotangent of ``a`` in ``np.fft.irfftn(a, s, axes, norm)`` (``irfft2`` with
    ``default_axes=(-2, -1)``): an ``ifftn`` over all axes but the last, then an ``irfft``
    over the last, transposed in the reverse order."""
    axes, lengths = _fft_axes(a, s, axes, default_axes)
    if s is None:
        lengths[-1] = 2 * (lengths[-1] - 1)
    spectrum = list(np.shape(a))
    for axis, n in zip(axes[:-1], lengths[:-1], strict=True):
        spectrum[axis] = n
    grad = irfft_vjp(g, _complex_like(spectrum), lengths[-1], axes[-1], norm)
    if len(axes) > 1:
        grad = fftn_vjp(grad, a, lengths[:-1], axes[:-1], norm, inverse=True)
    return grad
