"""What the specialiser knows of a value: its kind, and for arrays their shape and dtype.

The first call of a compiled derivative gives the shapes and dtypes of its arguments; from
them the specialiser (``specialise.py``) works out those of every variable of the generated
code, statement by statement. Only what follows from the argument shapes alone is known: a
shape that depends on the values (a boolean mask, a loop whose length is an argument's value)
is unknown, and the code that needs it stays general. ``join`` merges what two paths (two
branches, two loop iterations) know.

The rules for NumPy calls give a result's shape and dtype from its operands' (``numpy_call``):
ufuncs broadcast, reductions drop or keep their axes, ``@`` contracts; other functions of a
list known to depend on shapes only are run on placeholder arrays that share one element
(no memory, no arithmetic of note).
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

import numpy as np


class Abstract:
    """Base of what is known of a value."""


@dataclass(frozen=True)
class Unknown(Abstract):
    """Nothing is known (a value from code the specialiser does not follow)."""


UNKNOWN = Unknown()
_UNSET = object()


@dataclass(frozen=True)
class Number(Abstract):
    """A Python number of type ``kind`` (``bool``, ``int``, ``float``, ``complex``); ``value``
    when it is a known integer or bool (a loop count, an axis, a shape entry)."""

    kind: type
    value: Any = _UNSET

    @property
    def known(self) -> bool:
        return self.value is not _UNSET


@dataclass(frozen=True)
class Array(Abstract):
    """A NumPy array (or NumPy scalar, ``scalar=True``). ``shape`` is ``None`` when unknown
    (``ndim`` may still be known); ``fresh``: the array owns its memory, made by the code
    itself (not an argument, nor a view of something else)."""

    shape: tuple[int, ...] | None
    dtype: np.dtype | None
    ndim: int | None = None
    fresh: bool = False
    scalar: bool = False

    def __post_init__(self) -> None:
        if self.shape is not None and self.ndim is None:
            object.__setattr__(self, "ndim", len(self.shape))


@dataclass(frozen=True)
class Sequence(Abstract):
    """A tuple of known length (``items``) or a list whose items are all like ``item``
    (``None``: no item seen yet, as of a stack just made). A list or tuple the call gave
    (an argument, or held in one) also has its ``argument_items`` (a list's are read at a
    constant index only; code writing into it is specialised without them); a namedtuple
    has its ``fields``' names."""

    items: tuple[Abstract, ...] | None = None
    item: Abstract | None = None
    is_list: bool = False
    fields: tuple[str, ...] | None = None
    argument_items: tuple[Abstract, ...] | None = None

    def at(self, index: Any) -> Abstract:
        """The item at a constant ``index``, if known."""
        items = self.argument_items if self.is_list else self.items
        if items is None or not isinstance(index, int) or not -len(items) <= index < len(
                items):
            return UNKNOWN
        return items[index]

    def field(self, name: str) -> Abstract:
        if self.fields is None or self.items is None or name not in self.fields:
            return UNKNOWN
        return self.items[self.fields.index(name)]


MAX_DESCRIBED_ENTRIES = 16  # a larger dict argument (a vocabulary) is not described


@dataclass(frozen=True)
class Record(Abstract):
    """A dict argument of at most ``MAX_DESCRIBED_ENTRIES`` entries (a layer's parameters),
    or a dataclass instance: each entry (key or field name) and what is known of it."""

    kind: type
    entries: tuple[tuple[Any, Abstract], ...]

    def entry(self, key: Any) -> Abstract:
        for k, value in self.entries:
            if type(k) is type(key) and k == key:
                return value
        return UNKNOWN


@dataclass(frozen=True)
class Cotangent(Abstract):
    """The cotangent of a structure the call gave (``of``: a ``Record`` or ``Sequence``
    with ``knows_entries``) as ``zeros_like_grad`` makes it; what the specialiser needs of
    it is which entries belong to integer leaves, whose cotangents ``as_gradient`` drops
    (``None``). Not of a structure the code builds: ``(x, n)`` holds an integer argument
    whose gradient is a float."""

    of: Abstract

    def drops(self, key: Any) -> bool:
        """Is the entry at ``key`` an integer leaf's?"""
        if isinstance(self.of, Record):
            return is_integer_leaf(self.of.entry(key))
        if isinstance(self.of, Sequence):
            return is_integer_leaf(self.of.field(key) if isinstance(key, str) else
                                   self.of.at(key))
        return False

    def part(self, key: Any) -> Abstract:
        """The cotangent of the structure at ``key``, where it is a structure itself."""
        if isinstance(self.of, Record):
            inner = self.of.entry(key)
        elif isinstance(self.of, Sequence):
            inner = self.of.field(key) if isinstance(key, str) else self.of.at(key)
        else:
            return UNKNOWN
        return Cotangent(inner) if knows_entries(inner) else UNKNOWN


def is_integer_leaf(known: Abstract) -> bool:
    """A Python int or bool, or an integer or boolean NumPy scalar or array: a leaf whose
    gradient in a structure is ``None`` (``support.is_float_leaf``)."""
    if isinstance(known, Number):
        return known.kind is int or known.kind is bool
    return isinstance(known, Array) and known.dtype is not None and known.dtype.kind in "iub"


@dataclass(frozen=True)
class Constant(Abstract):
    """A value known exactly: ``None``, a string, a dtype, a module, a function, a class."""

    value: Any


NONE = Constant(None)


def of_value(value: Any, numbers: bool = True, structures: bool = True) -> Abstract:
    """What is known of a concrete value (an argument, a global the code reads); the value
    of an integer or bool only with ``numbers`` (an argument's is not: the code specialised
    for one call must serve every call with the same types and shapes). Without
    ``structures``, an argument's dicts and dataclasses are unknown, and its lists' and
    namedtuples' items known only as a list's or tuple's are (for code that writes into
    them: ``specialise.StructureWritten``)."""
    if isinstance(value, bool):
        return Number(bool, value) if numbers else Number(bool)
    if isinstance(value, int):
        return Number(int, value) if numbers else Number(int)
    if isinstance(value, float):
        return Number(float)
    if isinstance(value, complex):
        return Number(complex)
    if isinstance(value, np.ndarray):
        return Array(tuple(value.shape), value.dtype)
    if isinstance(value, np.generic):
        return Array((), value.dtype, scalar=True)
    if isinstance(value, tuple):
        fields = getattr(type(value), "_fields", None) if structures else None
        items = tuple(of_value(v, numbers, structures) for v in value)
        return Sequence(items=items, fields=tuple(fields) if fields is not None else None,
                        argument_items=None if numbers or not structures else items)
    if isinstance(value, list):
        items = tuple(of_value(v, numbers, structures) for v in value)
        item = None
        for v in items:
            item = join(item, v)
        # an argument's items are guarded one by one (``specialisation.describe``)
        return Sequence(item=item, is_list=True,
                        argument_items=None if numbers or not structures else items)
    if not numbers:  # an argument: known as far as ``specialisation.describe`` guards it
        return _argument_structure(value) if structures else _unknown_structure(value)
    return Constant(value)


def _unknown_structure(value: Any) -> Abstract:
    if isinstance(value, dict) or is_dataclass(value) and not isinstance(value, type):
        return UNKNOWN
    return Constant(value)


def knows_entries(known: Abstract) -> bool:
    """Does ``known`` hold what the call told of an argument structure's entries (a dict's
    or dataclass's, a list's or tuple's items), which a write into it would make stale?"""
    return isinstance(known, Record) or isinstance(known, Sequence) and (
        known.argument_items is not None)


def _argument_structure(value: Any) -> Abstract:
    """What is known of a dict or dataclass argument, or of any other object given."""
    if type(value) is dict:
        if len(value) > MAX_DESCRIBED_ENTRIES:
            return UNKNOWN  # its contents change from call to call, unguarded
        return Record(dict, tuple((k, of_value(v, False)) for k, v in value.items()))
    if isinstance(value, dict):
        return UNKNOWN
    if is_dataclass(value) and not isinstance(value, type):
        return Record(type(value), tuple((f.name, of_value(getattr(value, f.name), False))
                                         for f in fields(value)))
    return Constant(value)


def _equal(a: Abstract, b: Abstract) -> bool:
    """``a == b``, false where comparing fails: constants holding arrays (the dicts of a
    global list of layers) compare their arrays, which answer element by element."""
    try:
        return bool(a == b)
    except (ValueError, TypeError):
        return False


def join(a: Abstract | None, b: Abstract | None) -> Abstract:
    """What is known of a value that is either ``a`` or ``b`` (``None``: not yet a value)."""
    if a is None:
        return b if b is not None else UNKNOWN
    if b is None or _equal(a, b):
        return a
    if isinstance(a, Number) and isinstance(b, Number) and a.kind is b.kind:
        return Number(a.kind)
    if isinstance(a, Number) and isinstance(b, Array) or isinstance(a, Array) and isinstance(
            b, Number):
        number, array = (a, b) if isinstance(a, Number) else (b, a)
        if array.scalar and array.dtype == dtype_of(number) and number.kind is not bool:
            return Array((), array.dtype, scalar=True)  # a float or a NumPy float
        return UNKNOWN
    if isinstance(a, Array) and isinstance(b, Array):
        return Array(a.shape if a.shape == b.shape else None,
                     a.dtype if a.dtype == b.dtype else None,
                     a.ndim if a.ndim == b.ndim else None,
                     a.fresh and b.fresh, a.scalar and b.scalar)
    if isinstance(a, Sequence) and isinstance(b, Sequence) and a.is_list == b.is_list:
        if a.is_list:
            return Sequence(item=join(a.item, b.item), is_list=True)
        if a.items is not None and b.items is not None and len(a.items) == len(b.items):
            return Sequence(items=tuple(join(x, y) for x, y in zip(a.items, b.items,
                                                                  strict=True)))
    return UNKNOWN


def same_shape(a: Abstract, b: Abstract) -> bool:
    """Known to have the same shape (a Python float counts as shape ``()``)."""
    return shape_of(a) is not None and shape_of(a) == shape_of(b)


def shape_of(a: Abstract) -> tuple[int, ...] | None:
    if isinstance(a, Array):
        return a.shape
    if isinstance(a, Number) and a.kind is not bool:
        return ()
    return None


def dtype_of(a: Abstract) -> np.dtype | None:
    if isinstance(a, Array):
        return a.dtype
    if isinstance(a, Number):
        return np.dtype({bool: np.bool_, int: np.int64, float: np.float64,
                         complex: np.complex128}[a.kind])
    return None


def grad_dtype(a: Abstract) -> np.dtype | None:
    """The dtype of a gradient for ``a`` (its own if inexact, float64 otherwise)."""
    dtype = dtype_of(a)
    if dtype is None:
        return None
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def fresh(a: Abstract) -> Abstract:
    return replace(a, fresh=True) if isinstance(a, Array) else a


# -- placeholders: concrete stand-ins for what is known, to ask NumPy about results ------------
def placeholder(a: Abstract, unknown: int = 1) -> Any:
    """A value with ``a``'s type, shape and dtype (arrays share a single element), or
    ``_UNSET`` when too little is known to make one; ``unknown`` stands for a number whose
    value is not known."""
    if isinstance(a, Number):
        if a.known:
            return a.value
        return a.kind(unknown)
    if isinstance(a, Array):
        if a.shape is None or a.dtype is None:
            return _UNSET
        one = np.ones((), a.dtype)
        if a.scalar:
            return one[()]
        return np.broadcast_to(one, a.shape)
    if isinstance(a, Constant):
        return a.value
    if isinstance(a, Sequence) and a.items is not None:
        items = [placeholder(i, unknown) for i in a.items]
        return _UNSET if any(i is _UNSET for i in items) else tuple(items)
    return _UNSET


def _unknown_number(a: Abstract) -> bool:
    if isinstance(a, Number):
        return not a.known
    return isinstance(a, Sequence) and any(_unknown_number(i) for i in a.items or ())


def _result(value: Any, is_view: bool) -> Abstract:
    if isinstance(value, np.ndarray):
        return Array(tuple(value.shape), value.dtype, fresh=not is_view)
    if isinstance(value, np.generic):
        return Array((), value.dtype, scalar=True)
    if isinstance(value, bool | int | float | complex):
        return of_value(value)
    if isinstance(value, tuple):
        return Sequence(items=tuple(_result(v, is_view) for v in value))
    return UNKNOWN


def evaluate(function: Any, args: list[Abstract], kwargs: dict[str, Abstract],
             is_view: bool = False) -> Abstract:
    """``function`` applied to placeholders of ``args``: the result's shape and dtype.
    Only for functions whose result's shape does not depend on the values of arrays (the
    caller's list), and only while the placeholders are small (a function may touch every
    element). A number whose value is not known may decide the shape (``np.linspace(a, b,
    n)``, ``np.arange(x)``): the call is made with two stand-ins for it, and a shape that
    differs between them is not known."""
    result = _evaluate_with(function, args, kwargs, is_view, 1)
    if any(_unknown_number(a) for a in [*args, *kwargs.values()]):
        result = join(result, _evaluate_with(function, args, kwargs, is_view, 2))
    return result


def _evaluate_with(function: Any, args: list[Abstract], kwargs: dict[str, Abstract],
                   is_view: bool, unknown: int) -> Abstract:
    values = [placeholder(a, unknown) for a in args]
    keywords = {k: placeholder(v, unknown) for k, v in kwargs.items()}
    if any(v is _UNSET for v in [*values, *keywords.values()]):
        return UNKNOWN
    sizes = [np.size(v) for v in [*values, *keywords.values()] if isinstance(v, np.ndarray)]
    if sum(sizes) > 1_000_000:
        return UNKNOWN
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return _result(function(*values, **keywords), is_view)
    except Exception:  # the call would fail (or needs values): nothing is learnt
        return UNKNOWN


# -- rules: results worked out from the operands' shapes ---------------------------------------
def broadcast(operands: list[Abstract]) -> Abstract:
    """The result of elementwise arithmetic (or a ufunc) on ``operands``: the broadcast
    shape, and NumPy's dtype (Python numbers weak); Python numbers alone give a number."""
    if all(isinstance(a, Number) for a in operands):
        kinds = [a.kind for a in operands]
        for kind in (complex, float, int, bool):
            if kind in kinds:
                return Number(kind)
    if not all(isinstance(a, Number | Array) for a in operands):
        return UNKNOWN
    shapes = [shape_of(a) for a in operands]
    ndims = [a.ndim if isinstance(a, Array) else 0 for a in operands]
    shape = None
    if all(s is not None for s in shapes):
        shape = _broadcast_shapes(tuple(shapes))
        if shape is None:
            return UNKNOWN
    ndim = None if any(n is None for n in ndims) else max(ndims)
    # NumPy's arithmetic gives a NumPy scalar, not a 0-d array, for a 0-d result
    scalar = shape == () or all(isinstance(a, Number) or a.scalar for a in operands)
    return Array(shape, None, ndim, fresh=True, scalar=scalar)


# shapes -> the shape they broadcast to (``None``: they do not): a long function asks about
# the same few shapes again and again
_BROADCAST: dict[tuple[tuple[int, ...], ...], tuple[int, ...] | None] = {}


def _broadcast_shapes(shapes: tuple[tuple[int, ...], ...]) -> tuple[int, ...] | None:
    try:
        return _BROADCAST[shapes]
    except KeyError:
        pass
    try:
        shape: tuple[int, ...] | None = tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        shape = None
    if len(_BROADCAST) < 4096:  # (a bound: the shapes of one process's calls)
        _BROADCAST[shapes] = shape
    return shape


def arithmetic(operation: Any, operands: list[Abstract]) -> Abstract:
    """``operation`` (a function of NumPy values) on ``operands``: broadcast shape, and the
    dtype NumPy gives for 0-d stand-ins."""
    shaped = broadcast(operands)
    if not isinstance(shaped, Array):
        if isinstance(shaped, Number):
            return _number_result(operation, operands) or shaped
        return shaped
    if any(isinstance(a, Array) and a.dtype is None for a in operands):
        return shaped  # (of no dtype)
    kinds = tuple(a.kind if isinstance(a, Number) else a.dtype for a in operands)
    try:
        dtype = _RESULT_DTYPES[operation, kinds]
    except KeyError:
        dtype = _RESULT_DTYPES[operation, kinds] = _result_dtype(operation, operands)
    except TypeError:  # (an operation that cannot be a key)
        dtype = _result_dtype(operation, operands)
    # (made anew rather than by ``dataclasses.replace``, which took a third of the time)
    return UNKNOWN if dtype is None else Array(shaped.shape, dtype, shaped.ndim, fresh=True,
                                               scalar=shaped.scalar)


# (operation, each operand's Python type or dtype) -> the dtype of the result, or None if
# the operation fails: the same few are asked again and again in a long function, and
# each answer computes on stand-ins under NumPy's and Python's warning settings
_RESULT_DTYPES: dict[tuple[Any, tuple], np.dtype | None] = {}


def _result_dtype(operation: Any, operands: list[Abstract]) -> np.dtype | None:
    stand_ins = [a.kind(1) if isinstance(a, Number) else np.ones((), a.dtype)
                 for a in operands]
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return np.asarray(operation(*stand_ins)).dtype
    except Exception:
        return None


def _number_result(operation: Any, operands: list[Abstract]) -> Abstract | None:
    """Arithmetic on Python numbers: the type Python gives (and the value, for known
    integers, so that ``n - 1`` stays a known loop count)."""
    if all(isinstance(a, Number) and a.known for a in operands):
        try:
            value = operation(*[a.value for a in operands])
        except Exception:
            return UNKNOWN
        if isinstance(value, bool | int) and not isinstance(value, np.generic):
            return of_value(value)
        if isinstance(value, numbers.Number) and not isinstance(value, np.generic):
            return Number(type(value))
        return UNKNOWN
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = operation(*[a.kind(1) for a in operands])  # type: ignore[union-attr]
    except Exception:
        return UNKNOWN
    if isinstance(value, bool | int | float | complex) and not isinstance(value, np.generic):
        return Number(type(value))
    return UNKNOWN


def matmul(a: Abstract, b: Abstract) -> Abstract:
    """``a @ b``: contract the last axis of ``a`` with the second last of ``b``."""
    if not (isinstance(a, Array) and isinstance(b, Array)):
        return UNKNOWN
    dtype = None
    if a.dtype is not None and b.dtype is not None:
        dtype = np.result_type(a.dtype, b.dtype)
    if a.shape is None or b.shape is None:
        ndim = None
        if a.ndim is not None and b.ndim is not None and a.ndim <= 2 and b.ndim <= 2:
            ndim = a.ndim + b.ndim - 2
        return Array(None, dtype, ndim, fresh=True)
    sa, sb = a.shape, b.shape
    if not sa or not sb:
        return UNKNOWN
    left, right = (sa if len(sa) > 1 else (1, *sa)), (sb if len(sb) > 1 else (*sb, 1))
    if left[-1] != right[-2]:
        return UNKNOWN
    try:
        batch = tuple(np.broadcast_shapes(left[:-2], right[:-2]))
    except ValueError:
        return UNKNOWN
    shape = (*batch, *(left[-2:-1] if len(sa) > 1 else ()), *(right[-1:] if len(sb) > 1 else ()))
    return Array(shape, dtype, fresh=True, scalar=not shape)


def reduction(function: Any, x: Abstract, axis: Abstract | None, keepdims: Abstract | None,
              dtype: Abstract | None = None) -> Abstract:
    """A reduction (``np.sum``, ``np.mean``, ``np.max``...) of ``x`` over ``axis``."""
    if isinstance(x, Number):
        x = Array((), dtype_of(x), scalar=True)
    if not isinstance(x, Array) or x.ndim is None:
        return UNKNOWN
    keep = keepdims.value if isinstance(keepdims, Number) and keepdims.known else (
        False if keepdims is None else None)
    if keep is None:
        return UNKNOWN
    axes = _axes(axis, x.ndim)
    if axes is None:
        return UNKNOWN
    out_dtype = None
    if x.dtype is not None:
        kwargs = {}
        if dtype is not None:
            if not isinstance(dtype, Constant):
                return UNKNOWN
            kwargs["dtype"] = dtype.value
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                out_dtype = np.asarray(function(np.ones((1,), x.dtype), **kwargs)).dtype
        except Exception:
            return UNKNOWN
    if x.shape is None:
        ndim = x.ndim if keep else x.ndim - len(axes)
        return Array(None, out_dtype, ndim, fresh=True, scalar=ndim == 0)
    if keep:
        shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
    else:
        shape = tuple(n for i, n in enumerate(x.shape) if i not in axes)
    return Array(shape, out_dtype, fresh=True, scalar=not shape and not keep)


def _axes(axis: Abstract | None, ndim: int) -> tuple[int, ...] | None:
    if axis is None or axis == NONE:
        return tuple(range(ndim))
    if ndim == 0:
        return ()
    if isinstance(axis, Number) and axis.kind is int and axis.known:
        return (axis.value % ndim,)
    if isinstance(axis, Sequence) and axis.items is not None and all(
            isinstance(a, Number) and a.known for a in axis.items):
        return tuple(a.value % ndim for a in axis.items)  # type: ignore[union-attr]
    return None


def size(a: Abstract) -> int | None:
    shape = shape_of(a)
    return None if shape is None else math.prod(shape)
