"""The table of derivative-rule test cases: one ``Spec`` row per rule.

Each row names a primitive and lists the calls to check it at: argument placeholders
(``Arr`` for an array, ``Flt`` for a Python float, each drawn from a *domain* where the
function is smooth and finite differences are reliable) or literal values for the
non-differentiable parameters, with keyword variants. ``tests/test_rules.py`` checks every
case against central differences.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sourcegrad.hooks import grad_hook
from sourcegrad.nn import ops as nn_ops
from sourcegrad.rules import support
from sourcegrad.rules.support import astype


def _real(rng, shape):
    return rng.standard_normal(shape)


def _positive(rng, shape):
    return rng.uniform(0.5, 2.0, shape)


def _negative(rng, shape):
    return -rng.uniform(0.5, 2.0, shape)


def _nonzero(rng, shape):
    return rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape)


def _unit(rng, shape):
    return rng.uniform(-0.9, 0.9, shape)


def _fraction(rng, shape):
    """Quantile levels, clear of 0 and 1."""
    return rng.uniform(0.05, 0.95, shape)


def _percent(rng, shape):
    return rng.uniform(5.0, 95.0, shape)


def _above_one(rng, shape):
    return rng.uniform(1.5, 3.0, shape)


def _distinct(rng, shape):
    """Distinct absolute values, at least 0.25 apart, random signs: no ties for sort, max,
    or the inf-norms, so finite differences are valid."""
    n = int(np.prod(shape))
    magnitudes = (rng.permutation(n) + 1) * 0.25
    return np.reshape(magnitudes * rng.choice([-1.0, 1.0], n), shape)


def _with_zero(rng, shape):
    """Real values with one exact zero (prod, cumprod, sinc, and zero-vector norms)."""
    x = rng.standard_normal(shape)
    x.flat[1 % x.size] = 0.0
    return x


def _nonfinite(rng, shape):
    """Real values with a NaN, a +inf and a -inf planted (nan_to_num)."""
    x = rng.standard_normal(shape)
    for i, value in enumerate([np.nan, np.inf, -np.inf]):
        x.flat[i % x.size] = value
    return x


def _zeros(rng, shape):
    return np.zeros(shape)


def _spd(rng, shape):
    """Symmetric positive definite, well conditioned (cholesky, and det/inv/solve)."""
    b = rng.standard_normal(shape)
    return b @ np.swapaxes(b, -1, -2) + shape[-1] * np.eye(shape[-1])


def _well_conditioned(rng, shape):
    """Non-symmetric and invertible: random plus a multiple of the identity."""
    return rng.standard_normal(shape) + 3 * np.eye(shape[-1])


def _negative_det(rng, shape):
    """Invertible with a negative determinant (slogdet's sign -1)."""
    return _well_conditioned(rng, shape) * np.where(np.arange(shape[-1]) == 0, -1.0, 1.0)


def _symmetric(rng, shape):
    """Symmetric with well separated eigenvalues (eigh)."""
    b = rng.standard_normal(shape)
    q, _ = np.linalg.qr(b)
    w = np.arange(1, shape[-1] + 1) * 1.5 - 2.0
    return (q * w[..., None, :]) @ np.swapaxes(q, -1, -2)


def _separated(rng, shape):
    """Full rank with well separated singular values (svd, pinv, qr, lstsq)."""
    m, n = shape[-2], shape[-1]
    k = min(m, n)
    u, _ = np.linalg.qr(rng.standard_normal((*shape[:-2], m, m)))
    v, _ = np.linalg.qr(rng.standard_normal((*shape[:-2], n, n)))
    s = 1.0 + 1.5 * np.arange(k)[::-1]
    return (u[..., :, :k] * s) @ np.swapaxes(v[..., :, :k], -1, -2)


def _real_eigen(rng, shape):
    """Not symmetric, with real, well separated eigenvalues (eig, eigvals)."""
    n = shape[-1]
    v = np.eye(n) + 0.3 * rng.standard_normal(shape)
    w = np.arange(1, n + 1) * 1.5 - 2.2
    return np.linalg.solve(np.swapaxes(v, -1, -2), np.swapaxes(v * w[..., None, :], -1, -2)
                           ).swapaxes(-1, -2)


def _complex(rng, shape):
    """Complex values away from 0 (angle, abs)."""
    return _nonzero(rng, shape) + 1j * _nonzero(rng, shape)


def _probability(rng, shape):
    """Away from 0 and 1, where binary cross-entropy clamps its logs."""
    return rng.uniform(0.05, 0.95, shape)


def _mask(rng, shape):
    return rng.random(shape) < 0.5


DOMAINS: dict[str, Callable[[np.random.Generator, tuple], Any]] = {
    "real": _real, "positive": _positive, "negative": _negative, "nonzero": _nonzero,
    "unit": _unit, "fraction": _fraction, "percent": _percent, "above_one": _above_one,
    "distinct": _distinct, "with_zero": _with_zero,
    "zeros": _zeros, "nonfinite": _nonfinite, "spd": _spd, "well_conditioned": _well_conditioned,
    "negative_det": _negative_det,
    "symmetric": _symmetric, "mask": _mask, "probability": _probability,
    "separated": _separated, "real_eigen": _real_eigen, "complex": _complex,
}


@dataclass(frozen=True)
class Arr:
    """An array argument of ``shape`` drawn from ``domain``."""

    shape: tuple[int, ...]
    domain: str = "real"

    def make(self, rng: np.random.Generator) -> np.ndarray:
        return DOMAINS[self.domain](rng, self.shape)


@dataclass(frozen=True)
class Flt:
    """A Python float drawn from ``domain`` (for the ``math`` rules)."""

    domain: str = "real"

    def make(self, rng: np.random.Generator) -> float:
        return float(DOMAINS[self.domain](rng, ()))


def _build(template: Any, rng: np.random.Generator) -> Any:
    if isinstance(template, (Arr, Flt)):
        return template.make(rng)
    if isinstance(template, list):
        return [_build(t, rng) for t in template]
    if isinstance(template, dict):
        return {k: _build(t, rng) for k, t in template.items()}
    return template


@dataclass(frozen=True)
class Case:
    args: tuple
    kwargs: dict = field(default_factory=dict)

    def build(self, seed: int) -> tuple[list, dict]:
        rng = np.random.default_rng(seed)
        return [_build(a, rng) for a in self.args], {k: _build(v, rng)
                                                     for k, v in self.kwargs.items()}

    def label(self) -> str:
        def show(a):
            if isinstance(a, Arr):
                return "x".join(map(str, a.shape)) or "scalar"
            if isinstance(a, Flt):
                return "float"
            if isinstance(a, list):
                return "[" + ",".join(show(x) for x in a) + "]"
            if isinstance(a, dict):
                return "{" + ",".join(f"{k}:{show(x)}" for k, x in a.items()) + "}"
            return repr(a)
        parts = [show(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return "(" + ",".join(parts) + ")"


@dataclass(frozen=True)
class Spec:
    """One rule's cases. ``symmetric``: perturb matrices symmetrically (the rule reads one
    triangle of a symmetric input)."""

    primitive: Callable[..., Any]
    cases: tuple[Case, ...]
    symmetric: bool = False

    @property
    def name(self) -> str:
        module = getattr(self.primitive, "__module__", None) or ""
        prefix = {"math": "math.", "builtins": "builtins.", "_operator": "operator."}.get(
            module, "linalg." if "linalg" in module else "")
        return prefix + getattr(self.primitive, "__name__", repr(self.primitive))


def case(*args: Any, **kwargs: Any) -> Case:
    return Case(tuple(args), kwargs)


REDUCE = ("mean", "sum", "none")  # the losses' reduction argument
UNARY_SHAPES = [(), (3,), (2, 3)]
BINARY_SHAPES = [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((), (2, 3)),
                 ((2, 3), ()), ((2, 1, 3), (4, 1))]
REDUCTION_KWARGS = [{}, {"axis": 0}, {"axis": -1}, {"axis": (0, 2)}, {"axis": 1, "keepdims": True},
                    {"axis": None, "keepdims": True}, {"axis": (-1, 0), "keepdims": True}]


def unary(domain: str = "real") -> tuple[Case, ...]:
    return tuple(case(Arr(s, domain)) for s in UNARY_SHAPES)


def binary(domain1: str = "real", domain2: str = "real") -> tuple[Case, ...]:
    return tuple(case(Arr(s1, domain1), Arr(s2, domain2)) for s1, s2 in BINARY_SHAPES)


def reduction(domain: str = "real", extra: tuple[dict, ...] = ()) -> tuple[Case, ...]:
    variants = [case(Arr((2, 3, 4), domain), **kw) for kw in [*REDUCTION_KWARGS, *extra]]
    return (*variants, case(Arr((5,), domain)), case(Arr((), domain)))


def matrices(domain: str, *shapes: tuple[int, ...]) -> tuple[Case, ...]:
    return tuple(case(Arr(s, domain)) for s in shapes)


def pairs(*shape_pairs: tuple[tuple[int, ...], tuple[int, ...]], **kwargs: Any) -> tuple:
    return tuple(case(Arr(a), Arr(b), **kwargs) for a, b in shape_pairs)


def _math(name: str) -> Any:
    return getattr(math, name, None)


def _scalar(*domains: str) -> tuple[Case, ...]:
    return (case(*(Flt(d) for d in domains)),)


SPECS: list[Spec] = [
    # ---------------------------------------------------------------------- arithmetic
    Spec(np.add, binary()),
    Spec(np.subtract, binary()),
    Spec(np.multiply, binary()),
    Spec(np.divide, binary("real", "nonzero")),
    Spec(np.negative, unary()),
    Spec(np.positive, unary()),
    Spec(np.power, binary("positive", "real") + (
        case(Arr((3, 4), "real"), 3), case(Arr((3,), "positive"), 0.5),
        case(Arr((2, 3), "positive"), 2.0))),
    Spec(np.remainder, binary("real", "positive") + binary("real", "negative")[:2]),
    Spec(np.arctan2, binary()),
    Spec(np.hypot, binary("nonzero", "nonzero")),
    Spec(np.logaddexp, binary()),
    Spec(np.logaddexp2, binary()),
    Spec(np.float_power, binary("positive", "real") + (case(Arr((3,), "positive"), 0.5),)),
    Spec(np.fmod, binary("real", "positive") + binary("real", "negative")[:2]),
    Spec(np.divmod, binary("real", "positive")[:3] + binary("real", "negative")[:1]),
    Spec(divmod, _scalar("real", "positive") + _scalar("real", "negative")),
    Spec(np.modf, unary("nonzero")),
    Spec(np.ldexp, (case(Arr((3, 4)), np.array([1, -2, 0, 3])), case(Arr((4,)), 2),
                    case(Arr(()), np.array([[1], [2]])))),
    Spec(np.frexp, unary("nonzero")),
    Spec(np.heaviside, (case(Arr((3, 4), "nonzero"), Arr((4,))),
                        case(Arr((3, 1), "mask"), Arr((1, 4))))),
    Spec(np.nan_to_num, (case(Arr((2, 3), "nonfinite"), nan=Flt(), posinf=Flt(), neginf=Flt()),
                         case(Arr((3,), "nonfinite")), case(Arr((2, 3))))),
    # --------------------------------------------------------------------- elementwise
    Spec(np.square, unary()),
    Spec(np.sqrt, unary("positive")),
    Spec(np.cbrt, unary("nonzero")),
    Spec(np.reciprocal, unary("nonzero")),
    Spec(np.exp, unary()),
    Spec(np.exp2, unary()),
    Spec(np.expm1, unary()),
    Spec(np.log, unary("positive")),
    Spec(np.log2, unary("positive")),
    Spec(np.log10, unary("positive")),
    Spec(np.log1p, unary("positive")),
    Spec(np.sin, unary()),
    Spec(np.cos, unary()),
    Spec(np.tan, unary("unit")),
    Spec(np.arcsin, unary("unit")),
    Spec(np.arccos, unary("unit")),
    Spec(np.arctan, unary()),
    Spec(np.sinc, unary() + (case(Arr((4,), "with_zero")),)),
    Spec(np.sinh, unary()),
    Spec(np.cosh, unary()),
    Spec(np.tanh, unary()),
    Spec(np.arcsinh, unary()),
    Spec(np.arccosh, unary("above_one")),
    Spec(np.arctanh, unary("unit")),
    Spec(np.degrees, unary()),
    Spec(np.rad2deg, unary()[:1]),
    Spec(np.radians, unary()),
    Spec(np.deg2rad, unary()[:1]),
    Spec(np.absolute, unary("nonzero") + (case(Flt("nonzero")), case(Arr((2, 3), "complex")))),
    Spec(np.sign, unary("nonzero")),
    # --------------------------------------------------------------------- comparisons
    Spec(np.maximum, binary()),
    Spec(np.minimum, binary()),
    Spec(np.fmax, binary()),
    Spec(np.fmin, binary()),
    Spec(np.clip, (
        case(Arr((3, 4)), -0.5, 0.5),
        case(Arr((3, 4)), Arr((4,), "negative"), Arr((3, 1), "positive")),
        case(Arr((3, 4)), None, Arr((), "unit")),
        case(Arr((3, 4)), Arr((3, 4), "unit"), None),
        case(Arr((4,)), Arr((2, 1), "positive"), Arr((2, 1), "negative")),  # a_min > a_max
    )),
    Spec(np.where, (
        case(Arr((3, 4), "mask"), Arr((3, 4)), Arr((4,))),
        case(Arr((3, 1), "mask"), Arr(()), Arr((1, 4))),
    )),
    # ---------------------------------------------------------------------- reductions
    Spec(np.sum, reduction()),
    Spec(np.mean, reduction()),
    Spec(np.prod, reduction() + (case(Arr((3, 4), "with_zero"), axis=1),
                                 case(Arr((3, 4), "with_zero")))),
    Spec(np.average, reduction() + (
        case(Arr((3, 4)), axis=1, weights=Arr((4,), "positive")),
        case(Arr((3, 4)), axis=-2, weights=Arr((3,), "positive"), keepdims=True),
        case(Arr((2, 3)), weights=Arr((2, 3), "positive")),
        case(Arr((2, 3, 4)), axis=(0, 2), weights=Arr((2, 3, 4), "positive")),
        case(Arr((5,)), weights=Arr((5,), "positive"), returned=False),
        case(Arr((2, 3)), axis=0, weights=Arr((2, 3), "positive"), keepdims=True))),
    Spec(np.var, (*reduction(extra=({"ddof": 1}, {"axis": 1, "ddof": 1})),
                  # a float ddof divides too: it has a derivative
                  case(Arr((5,)), ddof=Flt("fraction")),
                  case(Arr((2, 3, 4)), axis=(0, 2), ddof=Flt("fraction"), keepdims=True))),
    # the standard deviation of one element is 0, where its derivative is nan: no scalar case
    Spec(np.std, (*reduction(extra=({"ddof": 1}, {"axis": 1, "ddof": 1}))[:-1],
                  case(Arr((5,)), ddof=Flt("fraction")),
                  case(Arr((3, 4)), axis=-1, ddof=Flt("fraction")))),
    Spec(np.max, reduction("distinct")),
    Spec(np.min, reduction("distinct")),
    Spec(np.nanmax, reduction("distinct")),
    Spec(np.nanmin, reduction("distinct")),
    Spec(np.ptp, reduction("distinct")),
    Spec(np.median, reduction("distinct") + (case(Arr((4, 3), "distinct"), axis=0),)),
    Spec(np.quantile, (case(Arr((3, 4), "distinct"), Flt("fraction")),
                       case(Arr((3, 4), "distinct"), [Flt("fraction"), Flt("fraction")],
                            axis=1),
                       case(Arr((2, 3, 4), "distinct"), Arr((2, 1), "fraction"), axis=(0, 2),
                            keepdims=True),
                       case(Arr((5,), "distinct"), Arr((), "fraction")))),
    Spec(np.percentile, (case(Arr((3, 4), "distinct"), Flt("percent")),
                         case(Arr((4, 3), "distinct"), Arr((3,), "percent"), axis=0,
                              keepdims=True))),
    Spec(np.cumsum, (case(Arr((2, 3, 4))), case(Arr((2, 3, 4)), axis=0),
                     case(Arr((2, 3, 4)), axis=-1), case(Arr((5,))), case(Arr(())))),
    Spec(np.cumprod, (case(Arr((2, 3, 4))), case(Arr((2, 3, 4)), axis=1),
                      case(Arr((2, 3, 4)), axis=-1), case(Arr((5,), "with_zero")),
                      case(Arr((2, 4), "with_zero"), axis=1))),
    # -------------------------------------------------------------------------- shapes
    Spec(np.transpose, (case(Arr((2, 3, 4))), case(Arr((2, 3, 4)), (1, 2, 0)),
                        case(Arr((2, 3, 4)), axes=(-1, 0, 1)), case(Arr((3,))))),
    Spec(np.swapaxes, (case(Arr((2, 3, 4)), 0, 2), case(Arr((2, 3)), -1, 0))),
    Spec(np.moveaxis, (case(Arr((2, 3, 4)), 0, -1), case(Arr((2, 3, 4)), (0, 1), (2, 0)))),
    Spec(np.reshape, (case(Arr((2, 3, 4)), (6, 4)), case(Arr((2, 3, 4)), (4, -1), order="F"),
                      case(Arr(()), (1, 1)))),
    Spec(np.ravel, (case(Arr((2, 3))), case(Arr((2, 3)), order="F"))),
    Spec(np.squeeze, (case(Arr((1, 3, 1))), case(Arr((1, 3, 1)), axis=0))),
    Spec(np.expand_dims, (case(Arr((3, 4)), 1), case(Arr((3, 4)), (0, -1)))),
    Spec(np.atleast_1d, (case(Arr(())), case(Arr((3,))), case(Arr(()), Arr((2, 3))))),
    Spec(np.atleast_2d, (case(Arr((3,))), case(Arr(())), case(Arr((3,)), Arr((2, 2))))),
    Spec(np.atleast_3d, (case(Arr((3, 4))), case(Arr((3,))), case(Arr(()), Arr((2, 2))))),
    Spec(np.broadcast_to, (case(Arr((3, 1)), (2, 3, 4)), case(Arr(()), (3,)))),
    Spec(np.array, (case([Arr((3,)), Arr((3,))]), case([[Flt(), Flt()], [Flt(), Flt()]]),
                    case(Arr((2, 3))), case(Arr((3,)), ndmin=2))),
    Spec(np.asarray, (case(Arr((2, 3))), case([Arr((2,)), Arr((2,)), Arr((2,))]))),
    Spec(np.copy, (case(Arr((2, 3))), case([Flt(), Flt()]))),
    Spec(np.real, unary() + (case(Arr((2, 3), "complex")),)),
    Spec(np.imag, (case(Arr((2, 3), "complex")), case(Arr((3,))))),
    Spec(np.conjugate, (case(Arr((2, 3), "complex")), case(Arr((3,))))),
    Spec(np.conj, (case(Arr((3,), "complex")),)),
    Spec(np.angle, (case(Arr((2, 3), "complex")), case(Arr((3,), "complex"), deg=True),
                    case(Arr((3,), "nonzero")))),
    Spec(np.fft.fft, (case(Arr((5,))), case(Arr((4, 3)), axis=0), case(Arr((4,)), 6),
                      case(Arr((6,)), 4, norm="ortho"),
                      case(Arr((5,), "complex"), norm="forward"))),
    Spec(np.fft.ifft, (case(Arr((5,), "complex")), case(Arr((4, 3)), axis=0), case(Arr((4,)), 6),
                       case(Arr((6,), "complex"), 4, norm="ortho"))),
    Spec(np.fft.fft2, (case(Arr((3, 4))), case(Arr((2, 3, 4)), s=(4, 5)),
                       case(Arr((3, 4), "complex"), norm="ortho"))),
    Spec(np.fft.ifft2, (case(Arr((3, 4), "complex")), case(Arr((3, 4)), s=(2, 6)))),
    Spec(np.fft.fftn, (case(Arr((2, 3, 4))), case(Arr((3, 4)), s=(2, 6), axes=(0, 1), norm="ortho"),
                       case(Arr((2, 3, 4), "complex"), axes=(0, 2)))),
    Spec(np.fft.ifftn, (case(Arr((2, 3, 4), "complex")), case(Arr((3, 4)), s=(4, 3), axes=(0, 1),
                                                               norm="forward"))),
    Spec(np.fft.rfft, (case(Arr((6,))), case(Arr((5,))), case(Arr((3, 6)), axis=0),
                       case(Arr((5,)), 8, norm="ortho"), case(Arr((7,)), 4, norm="forward"))),
    Spec(np.fft.irfft, (case(Arr((4,), "complex")), case(Arr((4,), "complex"), 7),
                        case(Arr((3, 4), "complex"), axis=0, norm="ortho"),
                        case(Arr((5,), "complex"), 4, norm="forward"))),
    Spec(np.fft.rfftn, (case(Arr((3, 4))), case(Arr((2, 3, 4)), s=(3, 6), axes=(1, 2)),
                        case(Arr((3, 5)), axes=(0,), norm="ortho"))),
    Spec(np.fft.rfft2, (case(Arr((3, 4))), case(Arr((2, 3, 5)), norm="forward"))),
    Spec(np.fft.irfftn, (case(Arr((3, 3), "complex")),
                         case(Arr((2, 3, 4), "complex"), s=(3, 5), axes=(1, 2)))),
    Spec(np.fft.irfft2, (case(Arr((3, 3), "complex")), case(Arr((2, 3, 4), "complex"),
                                                           norm="ortho"))),
    Spec(np.fft.hfft, (case(Arr((4,), "complex")), case(Arr((4,), "complex"), 7, norm="ortho"))),
    Spec(np.fft.ihfft, (case(Arr((6,))), case(Arr((5,)), norm="forward"))),
    Spec(np.fft.fftshift, (case(Arr((5,))), case(Arr((3, 4)), axes=0))),
    Spec(np.fft.ifftshift, (case(Arr((5,))), case(Arr((3, 4)), axes=(0, 1)))),
    Spec(np.fft.fftfreq, (case(5, Flt("positive")), case(4, 0.5))),
    Spec(np.fft.rfftfreq, (case(6, Flt("positive")),)),
    Spec(np.tile, (case(Arr((2, 3)), 2), case(Arr((2, 3)), (2, 1, 2)), case(Arr((3,)), (2, 2)),
                   case(Arr(()), 3))),
    Spec(np.repeat, (case(Arr((2, 3)), 2), case(Arr((2, 3)), [1, 0, 2], axis=1),
                     case(Arr((2, 3)), 3, axis=-2), case(Arr(()), 2))),
    Spec(np.concatenate, (case([Arr((2, 3)), Arr((1, 3))]),
                          case([Arr((2, 3)), Arr((2, 1))], axis=-1),
                          case([Arr((2, 2)), Arr((3,))], axis=None))),
    # np.r_[...] and np.c_[...] (the subscripts resolve to these functions of the items)
    Spec(support.concatenate_r, (case([Arr((3,)), Arr((2,))]),
                                 case([Arr(()), Arr((2,)), Arr(())]),
                                 case([Arr((2, 3)), Arr((1, 3))]))),
    Spec(support.concatenate_c, (case([Arr((3,)), Arr((3,))]),
                                 case([Arr((3, 2)), Arr((3,))]),
                                 case([Arr(()), Arr(())]),
                                 case([Arr((2, 2, 3)), Arr((2, 2, 1))]))),
    Spec(np.stack, (case([Arr((3,)), Arr((3,))]), case([Arr((2, 3)), Arr((2, 3))], axis=-1),
                    case([Arr(()), Arr(())]))),
    Spec(np.hstack, (case([Arr((3,)), Arr((2,))]), case([Arr((2, 3)), Arr((2, 1))]),
                     case([Arr(()), Arr(())]))),
    Spec(np.vstack, (case([Arr((3,)), Arr((3,))]), case([Arr((2, 3)), Arr((1, 3))]))),
    Spec(np.split, (case(Arr((6, 4)), 3), case(Arr((6, 4)), [1, 4]),
                    case(Arr((4, 6)), 2, axis=1))),
    Spec(np.array_split, (case(Arr((7,)), 3), case(Arr((3, 5)), [2], axis=-1))),
    Spec(np.unstack, (case(Arr((3, 2))), case(Arr((2, 3, 2)), axis=1))),
    Spec(support.last_writes, (case(Arr((3,)), Arr((4,)), [0, 2, 0]),
                               case(Arr((2, 2)), Arr((3, 2)), [1, 1]),
                               case(Arr((2,)), Arr((3,)), np.array([True, False, True])))),
    # writes (the runtime's in-place operations): a repeated position, a broadcast value
    Spec(support.index_put, (case(Arr((4, 3)), (slice(1, 3), 0), Arr((2,))),
                             case(Arr((5,)), np.array([0, 3, 0]), Arr((3,))),
                             case(Arr((2, 3)), 1, Flt()))),
    Spec(support.quantile_weights, (case(Arr((3, 4), "distinct"), np.array([0.3, 0.55]), axis=1),
                                    case(Arr((5,), "distinct"), 0.6))),
    Spec(support.filled_with, (case(Arr((2, 3)), Arr((3,))), case(Arr((4,)), Flt()))),
    Spec(np.flip, (case(Arr((2, 3, 4))), case(Arr((2, 3, 4)), 1),
                   case(Arr((2, 3, 4)), axis=(0, 2)))),
    Spec(np.fliplr, (case(Arr((2, 3))),)),
    Spec(np.flipud, (case(Arr((3, 2))), case(Arr((3,))))),
    Spec(np.roll, (case(Arr((2, 3, 4)), 1), case(Arr((2, 3, 4)), -2, axis=1),
                   case(Arr((2, 3)), (1, 2), axis=(0, 1)))),
    Spec(np.triu, (case(Arr((3, 4))), case(Arr((3, 4)), 1), case(Arr((2, 3, 3)), k=-1))),
    Spec(np.tril, (case(Arr((3, 4))), case(Arr((3, 4)), 1), case(Arr((2, 3, 3)), k=-1))),
    Spec(np.diag, (case(Arr((3,))), case(Arr((3,)), 1), case(Arr((3, 4))),
                   case(Arr((3, 4)), k=-1), case(Arr((3, 4)), k=2))),
    Spec(np.diagonal, (case(Arr((3, 4))), case(Arr((2, 3, 4)), 1, 1, 2),
                       case(Arr((3, 3)), offset=-1), case(Arr((3, 2, 4)), axis1=2, axis2=0))),
    Spec(np.take, (case(Arr((5,)), [0, 2, 2]), case(Arr((3, 4)), [[0, 1], [3, 3]], axis=1),
                   case(Arr((3, 4)), [-1, 13], mode="wrap"), case(Arr((3, 4)), 5),
                   case(Arr((3, 4)), [0, 7], axis=0, mode="clip"))),
    Spec(np.take_along_axis, (case(Arr((3, 4)), np.array([[0, 0], [3, 1], [2, 2]]), axis=1),
                              case(Arr((3, 4)), np.array([[2, 0, 1, 1]]), axis=0),
                              case(Arr((2, 3)), np.array([5, 0, 0]), axis=None))),
    Spec(np.sort, (case(Arr((3, 4), "distinct")), case(Arr((3, 4), "distinct"), axis=0),
                   case(Arr((3, 4), "distinct"), axis=None), case(Arr((5,), "distinct")))),
    Spec(np.full, (case((2, 3), Arr(())), case((2, 3), Arr((3,))), case((2, 3), Flt()))),
    Spec(np.full_like, (case(Arr((2, 3)), Arr(())), case(Arr((2, 3)), Arr((2, 1))),
                        case(np.arange(6).reshape(2, 3), Arr((3,))))),  # truncated to ints
    # each value is start + i * step (the stop decides only the count)
    Spec(np.arange, (case(Flt("fraction"), 5.5), case(Flt("fraction"), 4.2, Flt("positive")),
                     case(Flt("fraction"), -3.1, -0.7), case(6.3),
                     case(1.0, 7.0, Flt("positive")))),
    Spec(np.linspace, (case(Flt(), Flt(), 5), case(Arr((3,)), Arr(()), 4, axis=-1),
                       case(Arr(()), Arr((2,)), 3, endpoint=False),
                       case(Arr((2, 1)), Arr((3,)), 4, axis=1))),
    Spec(np.partition, (case(Arr((3, 5), "distinct"), 2), case(Arr((6,), "distinct"), [1, 4]),
                        case(Arr((3, 4), "distinct"), 1, axis=0),
                        case(Arr((2, 3), "distinct"), 3, axis=None))),
    Spec(np.rot90, (case(Arr((2, 3))), case(Arr((2, 3, 4)), 3, (1, 2)), case(Arr((2, 3)), k=-1),
                    case(Arr((2, 3)), 2, axes=(1, 0)))),
    Spec(np.rollaxis, (case(Arr((2, 3, 4)), 2), case(Arr((2, 3, 4)), 0, 3),
                       case(Arr((2, 3, 4)), -1, 1), case(Arr((2, 3, 4)), 1, start=-1))),
    Spec(np.matrix_transpose, (case(Arr((2, 3, 4))), case(Arr((3, 2))))),
    Spec(np.diagflat, (case(Arr((3,))), case(Arr((2, 2)), 1), case(Arr((3,)), k=-2))),
    Spec(np.column_stack, (case([Arr((3,)), Arr((3, 2))]), case([Arr((3,)), Arr((3,))]))),
    Spec(np.dstack, (case([Arr((2, 3)), Arr((2, 3, 2))]), case([Arr((3,)), Arr((3,))]))),
    Spec(np.append, (case(Arr((2, 3)), Arr((4,))), case(Arr((2, 3)), Arr((1, 3)), axis=0),
                     case(Arr((3,)), [Flt(), Flt()]))),
    Spec(np.vsplit, (case(Arr((4, 3)), 2), case(Arr((5, 2)), [1, 3]))),
    Spec(np.hsplit, (case(Arr((2, 4)), 2), case(Arr((6,)), 3))),
    Spec(np.dsplit, (case(Arr((2, 2, 4)), 2), case(Arr((1, 2, 3)), [1]))),
    Spec(np.unstack, (case(Arr((3, 2))), case(Arr((2, 3, 2)), axis=1))),
    Spec(np.broadcast_arrays, (case(Arr((3, 1)), Arr((4,))),
                               case(Arr(()), Arr((2, 3)), Arr((3,))))),
    Spec(np.block, (case([[Arr((2, 2)), Arr((2, 3))], [Arr((1, 5))]]),
                    case([Arr((3,)), Arr((2,))]), case([[Arr((2,)), Arr((2,))]]),
                    case([[Arr((1, 1, 2))], [Arr((2, 2))]]))),
    Spec(np.select, (case([Arr((3, 4), "mask"), Arr((4,), "mask")], [Arr((3, 4)), Arr((4,))],
                          Arr(())),
                     case([Arr((3,), "mask")], [Arr((3,))]))),
    Spec(np.resize, (case(Arr((2, 3)), (4, 4)), case(Arr((3,)), (2,)))),
    Spec(np.delete, (case(Arr((5,)), [0, 2]), case(Arr((3, 4)), 1, axis=1),
                     case(Arr((3, 4)), slice(0, 2), axis=0))),
    Spec(np.pad, (case(Arr((4,)), 3, mode="reflect"), case(Arr((2, 3)), 1),
                  case(Arr((2, 3)), ((1, 0), (2, 1)), mode="edge"),
                  case(Arr((3,)), 4, mode="wrap"),
                  case(Arr((2, 3)), ((2, 1), (1, 2)), mode="symmetric"),
                  case(Arr((2, 3)), 1, constant_values=Flt()),
                  case(Arr((2, 3)), ((1, 1), (2, 0)), constant_values=Arr((2, 2))))),
    Spec(np.diff, (case(Arr((5,))), case(Arr((3, 4)), 2, axis=0),
                   case(Arr((3, 4)), prepend=Flt(), append=Arr((3, 2))),
                   case(Arr((4,)), n=3, prepend=Arr((2,))))),
    Spec(np.gradient, (case(Arr((5,))), case(Arr((4, 5)), 0.5), case(Arr((4, 5)), axis=1,
                                                                      edge_order=2),
                       case(Arr((5,)), np.array([0, 1, 3, 4, 6]), edge_order=2),
                       case(Arr((4, 3)), 2.0, np.array([0, 1, 3])))),
    Spec(np.cross, pairs(((3,), (3,)), ((4, 3), (3,)), ((2, 1, 3), (4, 3)))
         + (case(Arr((3, 2)), Arr((2, 3)), axisa=0), case(Arr((3, 4)), Arr((3, 4)), axis=0),
            case(Arr((2, 3)), Arr((3, 2)), axisb=0, axisc=0))),
    # -------------------------------------------------------------------------- linalg
    Spec(np.matmul, pairs(((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)),
                          ((2, 3, 4), (4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((4,), (2, 4, 3)),
                          ((2, 3, 4), (4,)), ((3, 4), (2, 4, 2)))),
    Spec(np.dot, pairs(((3,), (3,)), ((2, 3), (3,)), ((2, 3), (3, 4)), ((), (2, 3)),
                       ((2, 3), ()), ((2, 3, 4), (5, 4, 2)), ((3,), (3, 2)))),
    Spec(np.inner, pairs(((3,), (3,)), ((2, 3), (4, 3)), ((), (2,)), ((2, 2, 3), (3,)))),
    Spec(np.outer, pairs(((3,), (4,)), ((2, 2), (3,)))),
    Spec(np.vdot, pairs(((2, 3), (6,)), ((3,), (3,)))),
    Spec(np.tensordot, pairs(((2, 3, 4), (3, 4, 5))) + pairs(((2, 3), (3, 4)), axes=1) +
         pairs(((2, 3, 4), (4, 2, 5)), axes=([0, 2], [1, 0])) + pairs(((2,), (3,)), axes=0) +
         pairs(((2, 3), (3, 2)), axes=([-1, 0], [0, -1]))),
    Spec(np.kron, pairs(((2, 3), (4, 5)), ((2,), (3, 4)), ((2, 2), (3,)), ((), (2,)))),
    Spec(np.einsum, (
        case("ij,jk->ik", Arr((2, 3)), Arr((3, 4))),
        case("ij,jk", Arr((2, 3)), Arr((3, 4))),
        case("ji", Arr((2, 3))),
        case("ii->i", Arr((3, 3))),
        case("ii", Arr((3, 3))),
        case("iij->j", Arr((3, 3, 2))),
        case("ij->", Arr((2, 3))),
        case("ij->j", Arr((2, 3))),
        case("i,i->i", Arr((3,)), Arr((3,))),
        case("...ij,...jk->...ik", Arr((2, 3, 4)), Arr((4, 5))),
        case("...i,...i", Arr((2, 3)), Arr((3,))),
        case("bij,bjk->bik", Arr((2, 3, 4)), Arr((1, 4, 2))),
        case("ij,jk,kl->il", Arr((2, 3)), Arr((3, 4)), Arr((4, 2))),
        case("i,j->ij", Arr((2,)), Arr((3,))),
        # the interleaved form: the first argument is an operand
        case(Arr((2, 3)), [0, 1], Arr((3, 4)), [1, 2], [0, 2]),
        case(Arr((2, 3)), [0, 1], Arr((3, 4)), [1, 2]),
        case(Arr((3, 3)), [0, 0]),
        case(Arr((2, 2, 3)), [Ellipsis, 0, 1], Arr((3, 2)), [1, 2], [Ellipsis, 2]),
    )),
    Spec(np.trace, (case(Arr((3, 3))), case(Arr((3, 4)), 1), case(Arr((2, 3, 3)), 0, 1, 2),
                    case(Arr((3, 2, 3)), axis1=-1, axis2=0, offset=-1))),
    Spec(np.linalg.det, matrices("well_conditioned", (3, 3), (2, 3, 3), (1, 1))),
    Spec(np.linalg.slogdet, matrices("well_conditioned", (3, 3), (2, 3, 3)) +
         matrices("negative_det", (3, 3))),
    Spec(np.linalg.inv, matrices("well_conditioned", (3, 3), (2, 3, 3))),
    Spec(np.linalg.solve, (
        case(Arr((3, 3), "well_conditioned"), Arr((3,))),
        case(Arr((3, 3), "well_conditioned"), Arr((3, 2))),
        case(Arr((2, 3, 3), "well_conditioned"), Arr((3,))),
        case(Arr((2, 3, 3), "well_conditioned"), Arr((2, 3, 1))),
        case(Arr((3, 3), "well_conditioned"), Arr((2, 3, 2))),
    )),
    Spec(np.linalg.norm, (
        case(Arr((4,))), case(Arr((4,), "distinct"), 1), case(Arr((4,), "distinct"), np.inf),
        case(Arr((4,), "distinct"), -np.inf), case(Arr((4,)), 3), case(Arr((4,)), 0),
        case(Arr((4,)), 0.5), case(Arr((4,), "nonzero"), -1), case(Arr((4,), "nonzero"), -2),
        case(Arr((4,), "with_zero")), case(Arr((4,), "zeros"), 3),
        case(Arr((3, 4))), case(Arr((3, 4)), "fro"), case(Arr((3, 4)), "nuc"),
        case(Arr((3, 4)), 2), case(Arr((3, 4)), -2), case(Arr((3, 4), "distinct"), 1),
        case(Arr((3, 4), "distinct"), -1), case(Arr((3, 4), "distinct"), np.inf),
        case(Arr((3, 4), "distinct"), -np.inf), case(Arr((2, 3, 4))),
        case(Arr((2, 3, 4)), axis=-1), case(Arr((2, 3, 4)), axis=(0, 2), keepdims=True),
        case(Arr((2, 3, 4), "distinct"), 1, axis=1), case(Arr((2, 3, 4)), "nuc", (2, 1)),
        case(Arr((3, 4)), keepdims=True),
    )),
    Spec(np.linalg.cholesky, (case(Arr((3, 3), "spd")), case(Arr((2, 3, 3), "spd")),
                              case(Arr((3, 3), "spd"), upper=True)), symmetric=True),
    Spec(np.linalg.eigh, (case(Arr((3, 3), "symmetric")), case(Arr((2, 3, 3), "symmetric")),
                          case(Arr((3, 3), "symmetric"), UPLO="U")), symmetric=True),
    Spec(np.linalg.svd, (case(Arr((4, 3), "separated"), full_matrices=False),
                         case(Arr((3, 3), "separated")),
                         case(Arr((3, 5), "separated"), full_matrices=False),
                         case(Arr((4, 3), "separated"), compute_uv=False),
                         case(Arr((2, 4, 3), "separated"), False),
                         case(Arr((3, 4), "separated"), True, False))),
    Spec(np.linalg.svdvals, (case(Arr((4, 3), "separated")), case(Arr((2, 3), "separated")))),
    Spec(np.linalg.pinv, (case(Arr((4, 3), "separated")), case(Arr((2, 4), "separated")),
                          case(Arr((3, 3), "well_conditioned")),
                          case(Arr((2, 4, 3), "separated")))),
    Spec(np.linalg.eig, (case(Arr((3, 3), "real_eigen")), case(Arr((2, 3, 3), "real_eigen")))),
    Spec(np.linalg.eigvals, (case(Arr((3, 3), "real_eigen")),
                             case(Arr((2, 3, 3), "real_eigen")))),
    Spec(np.linalg.eigvalsh, (case(Arr((3, 3), "symmetric")), case(Arr((2, 3, 3), "symmetric")),
                              case(Arr((3, 3), "symmetric"), UPLO="U")), symmetric=True),
    Spec(np.linalg.lstsq, (case(Arr((4, 2), "separated"), Arr((4,))),
                           case(Arr((4, 3), "separated"), Arr((4, 2))),
                           case(Arr((2, 4), "separated"), Arr((2,))),
                           case(Arr((3, 3), "well_conditioned"), Arr((3, 2)), rcond=None))),
    Spec(np.linalg.matrix_power, (case(Arr((3, 3), "well_conditioned"), 3),
                                  case(Arr((3, 3), "well_conditioned"), -2),
                                  case(Arr((2, 3, 3), "well_conditioned"), 1),
                                  case(Arr((3, 3), "well_conditioned"), 0))),
    Spec(np.linalg.multi_dot, (case([Arr((2, 3)), Arr((3, 4)), Arr((4, 2))]),
                               case([Arr((3,)), Arr((3, 4)), Arr((4, 2))]),
                               case([Arr((2, 3)), Arr((3, 4)), Arr((4,))]),
                               case([Arr((3,)), Arr((3,))]))),
    Spec(np.linalg.qr, (case(Arr((4, 3), "separated")), case(Arr((3, 3), "separated"), "complete"),
                        case(Arr((2, 4), "separated")), case(Arr((4, 3), "separated"), "r"),
                        case(Arr((2, 4, 3), "separated")), case(Arr((3, 5), "separated"), "r"))),
    Spec(np.linalg.vector_norm, (case(Arr((3, 4))), case(Arr((3, 4)), axis=1),
                                 case(Arr((3, 4), "distinct"), axis=(0, 1), ord=1),
                                 case(Arr((3, 4), "distinct"), axis=0, keepdims=True, ord=np.inf),
                                 case(Arr((4,)), ord=3))),
    Spec(np.linalg.matrix_norm, (case(Arr((2, 3, 4))), case(Arr((3, 4)), ord="nuc"),
                                 case(Arr((3, 4), "distinct"), ord=1, keepdims=True))),
    Spec(np.linalg.trace, (case(Arr((2, 3, 3))), case(Arr((3, 4)), offset=1))),
    Spec(np.linalg.diagonal, (case(Arr((2, 3, 3))), case(Arr((3, 4)), offset=-1))),
    Spec(np.vecdot, pairs(((3, 4), (4,)), ((2, 1, 3), (4, 3))) + (case(Arr((3, 4)), Arr((3, 1)),
                                                                      axis=0),)),
    Spec(np.linalg.vecdot, pairs(((2, 3), (3,)))),
    Spec(np.matvec, pairs(((2, 3, 4), (4,)), ((3, 4), (2, 4)))),
    Spec(np.vecmat, pairs(((3,), (3, 4)), ((2, 3), (2, 3, 4)))),
    Spec(np.linalg.cross, pairs(((4, 3), (3,))) + (case(Arr((3, 2)), Arr((3, 2)), axis=0),)),
    Spec(np.linalg.matmul, pairs(((3, 4), (4, 2)))),
    Spec(np.linalg.outer, pairs(((3,), (2,)))),
    Spec(np.linalg.tensordot, pairs(((2, 3), (2, 3))) + pairs(((2, 3), (3, 4)), axes=1)),
    # --------------------------------------------- the runtime's families: nn and indexing
    Spec(nn_ops.linear, (case(Arr((4, 3)), Arr((2, 3)), Arr((2,))), case(Arr((4, 3)), Arr((2, 3))),
                         case(Arr((3,)), Arr((2, 3)), Arr((2,))),
                         case(Arr((5, 4, 3)), Arr((2, 3)), Arr((2,))))),
    Spec(nn_ops.sigmoid, unary()),
    Spec(nn_ops.relu, unary("nonzero")),  # away from the kink
    Spec(nn_ops.softmax, (case(Arr((2, 3))), case(Arr((2, 3)), axis=0), case(Arr((4,))))),
    Spec(nn_ops.log_softmax, (case(Arr((2, 3))), case(Arr((2, 3)), axis=0),
                              case(Arr((4,))))),
    Spec(nn_ops.logsumexp, reduction()),
    Spec(nn_ops.rsqrt, unary("positive")),
    Spec(nn_ops.lerp, (case(Arr((3, 4)), Arr((3, 4)), Arr((3, 4))),
                       case(Arr((3, 4)), Arr((4,)), 0.25),
                       case(Arr((3, 1)), Arr((1, 4)), Arr((3, 4), "unit")),
                       case(Arr(()), Arr((2, 3)), Arr((3,))))),
    Spec(nn_ops.erf, unary()),
    Spec(nn_ops.floor, unary()),
    Spec(nn_ops.binary_cross_entropy_with_logits,
         tuple(case(Arr((2, 3)), Arr((2, 3), "probability"), reduction=r) for r in REDUCE)),
    Spec(nn_ops.binary_cross_entropy,
         tuple(case(Arr((2, 3), "probability"), Arr((2, 3), "probability"), reduction=r)
               for r in REDUCE)),
    Spec(nn_ops.mse_loss, tuple(case(Arr((2, 3)), Arr((2, 3)), reduction=r) for r in REDUCE)
         + (case(Arr((2, 3)), Arr((3,))),)),
    Spec(nn_ops.cross_entropy,
         tuple(case(Arr((3, 4)), np.array([0, 3, 3]), reduction=r) for r in REDUCE)
         + (case(Arr((4,)), np.array(2)),)),
    Spec(operator.getitem, (case(Arr((4, 3)), 1), case(Arr((4, 3)), (slice(1, None), 0)),
                            case(Arr((4, 3)), np.array([0, 0, 3])),
                            case(Arr((4, 3)), (np.array([0, 1, 1]), np.array([2, 2, 0]))),
                            case(Arr((4, 3)), (None, Ellipsis, 2)))),
]


SPECS += [
    Spec(math.sqrt, _scalar("positive")),
    Spec(math.exp, _scalar("real")),
    Spec(math.expm1, _scalar("real")),
    Spec(math.log, _scalar("positive") + _scalar("positive", "above_one")),
    Spec(math.log1p, _scalar("positive")),
    Spec(math.log2, _scalar("positive")),
    Spec(math.log10, _scalar("positive")),
    Spec(math.pow, _scalar("positive", "real") + (case(Flt(), 3), case(Flt("positive"), 0.5))),
    Spec(math.sin, _scalar("real")),
    Spec(math.cos, _scalar("real")),
    Spec(math.tan, _scalar("unit")),
    Spec(math.asin, _scalar("unit")),
    Spec(math.acos, _scalar("unit")),
    Spec(math.atan, _scalar("real")),
    Spec(math.atan2, _scalar("real", "real")),
    Spec(math.hypot, _scalar("nonzero", "nonzero") + _scalar("real", "real", "real")),
    Spec(math.degrees, _scalar("real")),
    Spec(math.radians, _scalar("real")),
    Spec(math.sinh, _scalar("real")),
    Spec(math.cosh, _scalar("real")),
    Spec(math.tanh, _scalar("real")),
    Spec(math.asinh, _scalar("real")),
    Spec(math.acosh, _scalar("above_one")),
    Spec(math.atanh, _scalar("unit")),
    Spec(math.erf, _scalar("real")),
    Spec(math.erfc, _scalar("real")),
    Spec(math.fabs, _scalar("nonzero")),
    Spec(float, (case(Flt()), case(Arr(())))),
    Spec(sum, (case([Arr((2, 3)), Arr((3,)), Arr(())]), case([Flt(), Flt()], Flt()),
               case([Arr((3,))], Arr((2, 1))))),
    Spec(astype, (case(Arr((3,)), np.float64), case(Arr((2, 3)), float))),
    Spec(np.float64, (case(Arr((2, 3))), case(Flt()), case(Arr(())))),
    Spec(math.fsum, (case([Flt(), Flt(), Flt()]), case(Arr((4,))))),
    Spec(max, (case(Flt(), Flt(), Flt()), case([Flt(), Flt()]), case(Arr((3,))))),
    Spec(min, (case(Flt(), Flt(), Flt()), case([Flt(), Flt(), Flt()]))),
    Spec(pow, binary("positive", "real")[:3] + (case(Flt("positive"), Flt()),
                                                case(Flt("nonzero"), 3), case(Arr((3,)), 2))),
    *(Spec(fn, binary(*domains)[:2]) for fn, domains in [
        (operator.add, ()), (operator.sub, ()), (operator.mul, ()),
        (operator.truediv, ("real", "nonzero")), (operator.pow, ("positive", "real")),
        (operator.mod, ("real", "positive")), (operator.matmul, ())] if fn is not operator.matmul),
    Spec(operator.matmul, pairs(((3, 4), (4, 2)), ((4,), (4,)))),
    Spec(operator.neg, unary()), Spec(operator.pos, unary()[:1]),
    Spec(operator.abs, unary("nonzero")[:2]),
    *(Spec(fn, _scalar(domain)) for fn, domain in [(_math("cbrt"), "nonzero"),
                                                   (_math("exp2"), "real")] if fn is not None),
]


# The helpers generated code calls (rules/support_rules.py), so that generated code can be
# differentiated again (Hessians, grad of grad).
SPECS += [
    Spec(support.through_cast, (case(Arr((2, 3)), np.float32), case(Arr((3,)), None),
                                case(Arr((3,)), np.int64), case(Arr(()), bool))),
    Spec(support.written_into, (case(Arr((2, 3)), Arr((4, 2, 3))),
                                case(Arr((3,)), np.zeros(3, dtype=np.int64)),
                                case(Arr(()), np.zeros(2, dtype=bool)))),
    Spec(support.unbroadcast, (case(Arr((2, 3, 4)), Arr((3, 1))), case(Arr((3,)), Arr((3,))),
                               case(Arr((2, 3)), Arr(())))),
    Spec(support.broadcast_like, (case(Arr((3, 1)), Arr((2, 3, 4))), case(Arr(()), Arr((2, 3))),
                                  case(Arr((3,)), Arr((3,))))),
    Spec(support.unreduce, (case(Arr((2, 4)), Arr((2, 3, 4)), axis=1),
                            case(Arr(()), Arr((2, 3))),
                            case(Arr((2, 1, 4)), Arr((2, 3, 4)), axis=1, keepdims=True),
                            case(Arr((4,)), Arr((2, 3, 4)), axis=(0, 1)))),
    Spec(support.reduce_like, (case(Arr((2, 3, 4)), Arr((2, 4)), axis=1),
                               case(Arr((2, 3)), Arr(())),
                               case(Arr((2, 3, 4)), Arr((2, 1, 4)), axis=1, keepdims=True),
                               case(Arr((2, 3, 4)), Arr((4,)), axis=(0, 1)))),
    Spec(support.average_weights, (case(Arr((4,), "positive"), Arr((3, 4)), 1),
                                   case(Arr((2, 3), "positive"), Arr((2, 3))))),
    Spec(support.average_total, (case(Arr((4,), "positive"), Arr((3, 4)), 1),
                                 case(Arr((3,), "positive"), Arr((3, 4)), 0, keepdims=True),
                                 case(Arr((2, 3), "positive"), Arr((2, 3))))),
    Spec(support.as_gradient, (case(Arr((3,)), Arr((3,))), case(Arr(()), Arr((2, 3))),
                               case(Flt(), Flt()))),
    Spec(support.unbroadcast_each, (case([Arr((3,)), Arr((2, 3))], [Arr((1,)), Arr((2, 3))]),
                                    case(Arr((2, 3)), Arr((3,))))),
    Spec(support.broadcast_each, (case([Arr((1,)), Arr(())], [Arr((3,)), Arr((2,))]),
                                  case(Arr((3,)), Arr((2, 3))))),
    Spec(support.private_copy, (case(Arr((3,))), case(Arr((2, 3))))),
    Spec(support.add_grads, (case(Arr((3,)), Arr((3,))), case(Arr((2, 3)), Arr((2, 3))))),
    # a layer's cotangent: every key, the parts given (in another order), zeros elsewhere
    Spec(support.zeros_like_grad_with, (
        case({"W": Arr((2, 3)), "b": Arr((2,))}, {"b": Arr((2,)), "W": Arr((2, 3))}),
        case({"W": Arr((2, 3)), "b": Arr((2,)), "s": Flt()}, {"W": Arr((2, 3))}))),
    Spec(support.parts_of_grad, (case({"W": Arr((2, 3)), "b": Arr((2,))}, {"b": Arr((2,))}),
                                 case({"W": Arr((2, 3))}, {"W": Arr((2, 3))}))),
    Spec(support.matmul_vjp_x1, (case(Arr((3, 5)), Arr((3, 4)), Arr((4, 5))),
                                 case(Arr((5,)), Arr((4,)), Arr((4, 5))),
                                 case(Arr((3,)), Arr((3, 4)), Arr((4,))),
                                 case(Arr((2, 3, 5)), Arr((2, 3, 4)), Arr((4, 5))))),
    Spec(support.matmul_vjp_x2, (case(Arr((3, 5)), Arr((3, 4)), Arr((4, 5))),
                                 case(Arr((5,)), Arr((4,)), Arr((4, 5))),
                                 case(Arr((3,)), Arr((3, 4)), Arr((4,))),
                                 case(Arr((2, 3, 5)), Arr((2, 3, 4)), Arr((4, 5))))),
    # a loop's matrix products as one (several steps; lists and arrays of steps; the
    # stacked-rows path, chunks of it, and the step-by-step fallback of mismatched steps)
    Spec(support.matmul_over_steps, (
        case(Arr((4, 3, 5)), Arr((5, 2))),
        case(Arr((4, 5)), Arr((5, 2))),
        case(Arr((3, 2, 5)), Arr((5,))),
        case([Arr((3, 5)), Arr((2, 5)), Arr((3, 5))], Arr((5, 2))),
        case(Arr((3, 2, 5)), Arr((2, 5, 4))))),  # w of 3 dimensions: a list of products
    Spec(support.matmul_vjp_x1_over_steps, (
        case([Arr((3, 2)), Arr((3, 2)), Arr((3, 2)), Arr((3, 2))],
             [Arr((3, 5)), Arr((3, 5)), Arr((3, 5)), Arr((3, 5))], Arr((5, 2))),
        case(Arr((4, 3, 2)), Arr((4, 3, 5)), Arr((5, 2))),
        case([Arr((2,)), Arr((3, 2))], [Arr((5,)), Arr((3, 5))], Arr((5, 2))),
        case([Arr((2, 2, 4)), Arr((2, 2, 4)), Arr((2, 2, 4))], Arr((3, 2, 5)), Arr((2, 5, 4))))),
    Spec(support.matmul_vjp_x2_over_steps, (
        case([Arr((3, 2)), Arr((3, 2)), Arr((3, 2)), Arr((3, 2))],
             [Arr((3, 5)), Arr((3, 5)), Arr((3, 5)), Arr((3, 5))], Arr((5, 2))),
        case([Arr((2,)), Arr((2,)), Arr((2,))], [Arr((5,)), Arr((5,)), Arr((5,))], Arr((5, 2))),
        case([Arr((2, 2)), Arr((3, 2))], [Arr((2, 5)), Arr((3, 5))], Arr((5, 2))),
        case([Arr((2, 3, 2)), Arr((2, 3, 2))], [Arr((2, 3, 5)), Arr((2, 3, 5))], Arr((5, 2))),
        case([Arr((16, 8))] * 5, [Arr((16, 56))] * 5, Arr((56, 8))),  # 2 chunks of steps
        case([Arr((64, 8))] * 2, [Arr((64, 56))] * 2, Arr((56, 8))),  # a product a step
        case([Arr((2,)), Arr((3, 2))], [Arr((5,)), Arr((3, 5))], Arr((5, 2))),  # step by step
        case([Arr((3,)), Arr((3,))], [Arr((3, 4)), Arr((3, 4))], Arr((4,))),
        case([Arr((2, 3, 2))], [Arr((3, 5))], Arr((2, 5, 2))),
        case(Arr((4, 3, 2)), Arr((4, 3, 5)), Arr((5, 2))))),  # arrays of all steps
    Spec(list, (case(Arr((3,))), case(Arr((3, 2))))),
    Spec(support.one_if_single, (case(Arr((2,)), Arr((2, 3))), case(Arr(()), Arr((3,))),
                                 case(Arr((2, 1)), Arr((2, 1))))),
    Spec(support.last_writes, (case(Arr((3,)), Arr((4,)), [0, 2, 0]),
                               case(Arr((2, 2)), Arr((3, 2)), [1, 1]),
                               case(Arr((2,)), Arr((3,)), np.array([True, False, True])))),
    # with the identity as hook, the hook's rule must be the identity's
    Spec(grad_hook, (case(Arr((3,)), np.positive), case(Arr((2, 3)), np.asarray))),
    Spec(math.copysign, _scalar("nonzero", "nonzero")),
    Spec(support.undiagonal, (case(Arr((3,)), Arr((3, 3))),
                              case(Arr((3,)), Arr((3, 4)), offset=1),
                              case(Arr((2, 1)), Arr((2, 3, 3)), axis1=1, axis2=2))),
    Spec(support.split_back, (case(Arr((5, 2)), [Arr((2, 2)), Arr((3, 2))]),
                              case(Arr((2, 5)), [Arr((2, 2)), Arr((2, 3))], axis=1),
                              case(Arr((7,)), [Arr((2, 2)), Arr((3,))], axis=None),
                              case(Arr((2, 3)), [Arr((3,)), Arr((1, 3))], 0, np.atleast_2d))),
    Spec(support.join_back, (case([Arr((2, 2)), Arr((3, 2))], [Arr((2, 2)), Arr((3, 2))]),
                             case([Arr((2, 2)), Arr((3,))], [Arr((2, 2)), Arr((3,))],
                                  axis=None),
                             case([Arr((3,)), Arr((1, 3))], [Arr((3,)), Arr((1, 3))], 0,
                                  np.atleast_2d))),
    Spec(support.reshape_each, (case(Arr((3,)), [Arr((1, 3))]), case(Arr((4,)), Arr((2, 2))),
                                case([Arr((2,)), Arr(())], [Arr((1, 2)), Arr((1, 1))]),
                                case([Arr((6,))], Arr((2, 1, 3))))),
    Spec(support.spectral_norm_derivative, (case(Arr((3, 4)), "nuc"), case(Arr((3, 4)), 2),
                                            case(Arr((4, 3)), -2), case(Arr((3, 3)), "nuc"),
                                            case(Arr((2, 4, 3)), 2), case(Arr((2, 3, 4)), "nuc"))),
    Spec(support.einsum_vjp_one, (
        case(Arr((2, 4)), "ij,jk->ik", [Arr((2, 3)), Arr((3, 4))], 0),
        case(Arr((2, 4)), "ij,jk->ik", [Arr((2, 3)), Arr((3, 4))], 1),
        case(Arr((3,)), "ii->i", [Arr((3, 3))], 0),
        case(Arr((2, 3, 2)), "...ij,...jk->...ik", [Arr((2, 3, 4)), Arr((4, 2))], 1),
        case(Arr((2, 2)), "ij,jk,kl->il", [Arr((2, 3)), Arr((3, 4)), Arr((4, 2))], 1),
        # interleaved: the operand `subscripts` (k=-1), then `operands[1]`
        case(Arr((2, 4)), Arr((2, 3)), [[0, 1], Arr((3, 4)), [1, 2], [0, 2]], -1),
        case(Arr((2, 4)), Arr((2, 3)), [[0, 1], Arr((3, 4)), [1, 2], [0, 2]], 1))),
    Spec(support.einsum_jvp, (
        case([Arr((2, 3)), Arr((3, 4))], "ij,jk->ik", [Arr((2, 3)), Arr((3, 4))]),
        case([Arr((3, 3))], "ii", [Arr((3, 3))]),
        case([Arr((2, 3)), Arr((3,)), Arr((3,))], "ij,j,j->i",
             [Arr((2, 3)), Arr((3,)), Arr((3,))]),
        # interleaved: `first` is the tangent of the first operand, `subscripts`
        case([None, Arr((3, 4)), None], Arr((2, 3)), [[0, 1], Arr((3, 4)), [1, 2]],
             first=Arr((2, 3))))),
    Spec(support.quantile_weights, (case(Arr((3, 4), "distinct"), Flt("fraction")),
                                    case(Arr((3, 4), "distinct"), Arr((2,), "fraction"),
                                         axis=1))),
    Spec(support.unstack_like, (case(Arr((2, 3)), [Arr((3,)), Arr((3,))]),
                                case(Arr((3,)), Arr((3,))))),
    # Python's `+` and `*` of lists and tuples (resolve tells them from arithmetic)
    Spec(support.joined, (case([Arr((3,)), Arr((2,))], [Arr((2,))]),
                          case([Arr(())], [Arr((2, 2)), Arr((3,))]))),
    Spec(support.repeated, (case([Arr((3,)), Arr((2,))], 2), case([Arr((2,))], 3))),
    Spec(sorted, (case([Flt(), Flt(), Flt()]), case(Arr((4,), "distinct"), reverse=True))),
    # (keys that do not tie: the order, and so the derivative, would jump)
    Spec(support.unsorted, (case([Flt(), Flt(), Flt()], Arr((3,), "distinct")),
                            case([Arr((2,)), Arr((2,)), Arr((2,))], Arr((3, 2), "distinct"),
                                 key=np.max, reverse=True))),
    Spec(support.sorted_like, (case(Arr((3,)), Arr((3,), "distinct")),
                               case(Arr((2, 2)), Arr((2, 2), "distinct"), key=np.max))),
    Spec(support.summed_repeats, (case([Arr((3,)), Arr((2,)), Arr((3,)), Arr((2,))],
                                       [Arr((3,)), Arr((2,))]),)),
    # (a nested list of outputs does not fit the second-order checks' weights)
    Spec(support.unblock, (case(Arr((5,)), [Arr((3,)), Arr((2,))]),
                           case(Arr((2, 5)), [Arr((2, 2)), Arr((2, 3))]))),
    Spec(support.gradient_tangent, (case(Arr((4, 5)), (0.5,)), case(Arr((5,)), (), edge_order=2),
                                    case(Arr((4, 3)), (2.0, 0.5)))),
    Spec(support.untile, (case(Arr((2, 6)), Arr((2, 3)), (1, 2)),
                          case(Arr((2, 3, 4)), Arr((3, 2)), (2, 1, 2)))),
    Spec(support.unrepeat, (case(Arr((6,)), Arr((3,)), 2),
                            case(Arr((2, 5)), Arr((2, 3)), np.array([1, 2, 2]), axis=1),
                            case(Arr((12,)), Arr((2, 3)), 2))),
    Spec(support.untake, (case(Arr((3,)), Arr((5,)), np.array([0, 2, 2])),
                          case(Arr((2, 3)), Arr((2, 4)), np.array([1, 3, 1]), axis=1),
                          case(Arr((2,)), Arr((2, 3)), np.array([7, -1]), mode="wrap"))),
    Spec(support.untake_along_axis, (
        case(Arr((2, 3)), Arr((2, 3)), np.array([[2, 0, 1], [1, 1, 0]]), axis=1),
        case(Arr((4,)), Arr((2, 3)), np.array([5, 0, 0, 3]), axis=None))),
    Spec(np.bincount, (case(np.array([0, 2, 2, 1]), weights=Arr((4,))),
                       case(np.array([3, 0]), weights=Arr((2,)), minlength=6))),
    Spec(np.copysign, (case(Arr((2, 3), "nonzero"), Arr((3,), "nonzero")),)),
]


def spec_cases() -> list[tuple[Spec, Case]]:
    """Every (row, case) pair, for parametrising tests."""
    return [(spec, c) for spec in SPECS for c in spec.cases]
