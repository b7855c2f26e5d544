"""Functions whose results carry no derivative: their value is constant with respect to
every float argument, or locally constant (piecewise constant functions, whose derivative
is 0 wherever it exists).

A call to one of these is treated as a constant; a call to a function with neither a rule
nor an entry here is an error, never a silent zero.
"""

import builtins
import math
import operator

import numpy as np

from .registry import nondifferentiable

nondifferentiable(
    np.shape, np.ndim, np.size, np.result_type, np.can_cast,
    reason="shape and type queries",
)

nondifferentiable(
    np.zeros, np.ones, np.empty, np.zeros_like, np.ones_like, np.empty_like,
    np.eye, np.identity, np.indices, np.tri,
    reason="constructors whose values do not depend on any float argument",
)

nondifferentiable(
    np.argmax, np.argmin, np.argsort, np.nonzero, np.flatnonzero, np.argwhere,
    np.searchsorted, np.digitize, np.argpartition, np.lexsort,
    reason="integer positions",
)

nondifferentiable(
    np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
    np.logical_and, np.logical_or, np.logical_not, np.logical_xor,
    np.isclose, np.allclose, np.array_equal, np.signbit,
    np.isnan, np.isinf, np.isfinite, np.all, np.any, np.count_nonzero,
    np.isposinf, np.isneginf, np.isreal, np.iscomplex, np.isrealobj, np.iscomplexobj,
    np.isscalar, np.isnat, np.array_equiv, np.isin, np.may_share_memory, np.shares_memory,
    reason="booleans and counts",
)

nondifferentiable(
    operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne,
    operator.not_, operator.truth, operator.and_, operator.or_, operator.xor,
    operator.invert, operator.index, operator.length_hint,
    reason="the operator module's comparisons, booleans and integers",
)

nondifferentiable(
    np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.bitwise_not, np.invert,
    np.left_shift, np.right_shift, np.gcd, np.lcm,
    getattr(np, "bitwise_count", None), getattr(np, "bitwise_invert", None),
    getattr(np, "bitwise_left_shift", None), getattr(np, "bitwise_right_shift", None),
    reason="integer and boolean arithmetic",
)

nondifferentiable(
    np.spacing,
    reason="piecewise constant: the distance to the next float depends on the exponent only",
)

nondifferentiable(
    np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.intp, np.uintp, np.bool_,
    reason="integer and boolean casts: no derivative (as int() has none)",
)

nondifferentiable(
    np.floor, np.ceil, np.round, np.around, np.rint, np.trunc, np.fix, np.floor_divide,
    operator.floordiv,
    reason=("piecewise constant: the derivative is 0 wherever it exists, as in PyTorch "
            "(floor_divide included: x1 // x2 only jumps)"),
)

nondifferentiable(
    *(getattr(np.random, name) for name in np.random.__all__
      if callable(getattr(np.random, name)) and not isinstance(getattr(np.random, name), type)),
    reason="random numbers: samples, not functions of the parameters",
)

nondifferentiable(
    math.floor, math.ceil, math.trunc, math.isnan, math.isinf, math.isfinite, math.isclose,
    math.factorial, math.comb, math.perm, math.gcd,
    reason="integer-valued, boolean or piecewise constant",
)

nondifferentiable(
    builtins.len, builtins.range, builtins.int, builtins.round, builtins.bool,
    builtins.isinstance,
    reason="Python builtins returning integers, booleans or counters",
)
