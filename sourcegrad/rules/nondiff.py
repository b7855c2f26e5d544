"""Functions whose results carry no derivative: their value is constant with respect to
every float argument, or locally constant (piecewise constant functions, whose derivative
is 0 wherever it exists).

A call to one of these is treated as a constant; a call to a function with neither a rule
nor an entry here is an error, never a silent zero.
"""

import builtins
import math

import numpy as np

from .registry import nondifferentiable

nondifferentiable(
    np.shape, np.ndim, np.size, np.result_type, np.can_cast,
    reason="shape and type queries",
)

nondifferentiable(
    np.zeros, np.ones, np.empty, np.zeros_like, np.ones_like, np.empty_like,
    np.arange, np.eye, np.identity, np.indices, np.tri,
    reason="constructors whose values do not depend on any float argument",
)

nondifferentiable(
    np.argmax, np.argmin, np.argsort, np.nonzero, np.flatnonzero, np.argwhere,
    np.searchsorted, np.digitize,
    reason="integer positions",
)

nondifferentiable(
    np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
    np.logical_and, np.logical_or, np.logical_not, np.logical_xor,
    np.isclose, np.allclose, np.array_equal, np.signbit,
    np.isnan, np.isinf, np.isfinite, np.all, np.any, np.count_nonzero,
    reason="booleans and counts",
)

nondifferentiable(
    np.floor, np.ceil, np.round, np.around, np.rint, np.trunc, np.fix, np.floor_divide,
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
