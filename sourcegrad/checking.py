"""``check=True`` (and ``SOURCEGRAD_CHECK=1``): the first call of each derivative is compared
with central finite differences, and a disagreement raises instead of returning a number.

Each check is one inner product along a random direction ``u`` (and, for an array output, a
random cotangent ``v``), the dot-product test of ``sourcegrad.testing``:

- ``grad`` / ``value_and_grad``: ``<gradient, u>`` against ``(f(x + h u) - f(x - h u)) / 2h``;
- ``vjp``: ``<pullback(v), u>`` against ``<v, (f(x + h u) - f(x - h u)) / 2h>`` (``v`` is the
  cotangent the caller passed);
- ``jvp``: ``<v, tangent_out(u)>`` against the same ``<v, ...>`` (one more run of the
  generated tangent code, along ``u`` rather than the caller's tangents).

"First call" is per derivative and per argument signature (container types, keys, shapes and
dtypes): a derivative can be right for one shape and wrong for another (broadcasting, a size-1
edge), so a new signature is checked once more; the same one is never checked twice. A failed
check is not remembered: the next call checks (and raises) again.

Tolerance: the generated derivative is exact up to rounding, and the central difference with
``h = 1e-6`` (times the size of each argument leaf, at least 1) is off by about
``h**2 * |f'''| / |f'|`` (truncation, ``1e-12`` times the squared frequency of the function)
plus ``1e-10 * |f| / h``-sized rounding. The two numbers must agree within ``1e-4`` relative to
the size the inner product has for a random ``u`` (``|gradient|``, or ``|tangent_out|``), plus
that rounding estimate (``testing.rounding_noise``) as the absolute floor. A wrong rule (a
wrong factor, sign or missing term) is off by far more than ``1e-4``; ordinary float64
functions are far within it. A function evaluated within ``h`` of a kink or a jump (``abs``,
``maximum``, ``floor`` of a large array) can still disagree at one step, so a disagreement is
reported only when the steps ``1e-8`` and ``1e-4`` disagree too.

Only float64 and Python float leaves get a direction: integer, boolean, complex and lower
precision leaves (where finite differences cannot tell a wrong derivative from rounding) and
other objects are left where they are (a gradient with no float leaf is not checked). A
symmetric matrix moves along a symmetric direction (the rules of ``eigh`` and ``cholesky``
assume it stays symmetric). If the function cannot be evaluated next to the arguments, or is
not finite there, the derivative is not checked (a ``RuntimeWarning`` says so when evaluating
raised). Nor is a derivative whose code calls ``sg.stop_gradient`` or ``sg.grad_hook``: it
differs from finite differences on purpose (a ``RuntimeWarning`` says so, once); a user rule
that does (a straight-through estimator) fails the check, so leave ``check`` off for it
(``check=False`` overrides ``SOURCEGRAD_CHECK``). The check runs the function at least twice
more, so it must be deterministic.
"""

from __future__ import annotations

import functools
import inspect
import os
import types
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import testing
from .errors import SourcegradError

ENVIRONMENT = "SOURCEGRAD_CHECK"
RTOL = 1e-4
STEPS = (1e-6, 1e-8, 1e-4)  # the first decides; the others are asked only on a disagreement
SEED = 0

# derivative (a generated function) -> the argument signatures it passed the check for
_PASSED: weakref.WeakKeyDictionary[Any, set] = weakref.WeakKeyDictionary()


class DerivativeCheckError(SourcegradError):
    """The derivative disagrees with central finite differences (``check=True``)."""

    def __init__(self, message: str, derivative: float, finite_difference: float) -> None:
        super().__init__(message)
        self.derivative = derivative
        self.finite_difference = finite_difference


def wanted(check: bool | None) -> bool:
    """``check`` as given, or when it is ``None``, whether ``SOURCEGRAD_CHECK`` asks for it."""
    if check is not None:
        return bool(check)
    return os.environ.get(ENVIRONMENT, "").strip().lower() not in ("", "0", "false", "no", "off")


# -- the three kinds of derivative ----------------------------------------------------------
_WRAPPERS = "_sourcegrad_checked"  # on a generated function: its checked wrappers


def checked_gradient(compiled: Any, fun: Callable, names: tuple[str, ...], single: bool,
                     with_value: bool, has_aux: bool = False) -> Any:
    """``compiled`` (the generated ``grad_f`` or ``value_and_grad_f``) checked at the first
    call of each argument signature; it keeps the generated function's attributes
    (``.source``...) and unwraps to it (``inspect.unwrap``), so that differentiating it again
    reads the generated code. Asking again gives the same function. With ``has_aux``, ``fun``
    returns ``(output, aux)`` and ``compiled`` ``(gradient, aux)`` or ``((value, aux),
    gradient)``."""
    wrappers = compiled.__dict__.setdefault(_WRAPPERS, {})
    if (names, single) in wrappers:
        return wrappers[names, single]
    signature = inspect.signature(fun)
    output = output_of(fun, has_aux)

    def comparison(result: Any, args: tuple, kwargs: dict) -> _Comparison:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        gradients = result[1] if with_value else result[0] if has_aux else result
        gradients = (gradients,) if single else tuple(gradients)
        value = (result[0][0] if has_aux else result[0]) if with_value else None
        return _Gradient(output, bound, names, gradients, value)

    @functools.wraps(compiled)
    def checked(*args: Any, **kwargs: Any) -> Any:
        result = compiled(*args, **kwargs)
        _once(compiled, (args, kwargs), (compiled,), lambda: comparison(result, args, kwargs))
        return result

    del checked.__dict__[_WRAPPERS]  # copied from ``compiled`` by ``wraps``
    wrappers[names, single] = checked
    return checked


def output_of(fun: Callable, has_aux: bool) -> Callable:
    """``fun``, or with ``has_aux`` the function returning the first part of its pair (the
    output differentiated; the aux is not)."""
    if not has_aux:
        return fun

    @functools.wraps(fun)
    def output(*args: Any, **kwargs: Any) -> Any:
        return fun(*args, **kwargs)[0]

    return output


def checked_pullback(pullback: Callable, generated: tuple[Any, Any], fun: Callable,
                     args: Sequence[Any], value: Any) -> Callable:
    """``pullback`` checked at the first call of the generated ``(forward, backward)`` pair for
    each argument signature."""

    @functools.wraps(pullback)
    def checked(cotangent: Any) -> tuple:
        gradients = pullback(cotangent)
        moved = [g is not None for g in gradients]
        _once(generated[1], (args, cotangent), generated,
              lambda: _Comparison(fun, list(args), moved, cotangent, value, gradients))
        return gradients

    return checked


def check_tangent(generated: Any, fun: Callable, primals: Sequence[Any], moved: Sequence[bool],
                  value: Any, tangent_of: Callable[[list[Any]], Any]) -> None:
    """Check ``generated`` (the ``jvp_f`` behind ``sg.jvp``) at the first call of each argument
    signature: ``tangent_of(u)`` runs it along the tangents ``u`` (one per primal, ``None``
    where ``moved`` is false)."""
    _once(generated, primals, (generated,),
          lambda: _Tangent(fun, list(primals), moved, value, tangent_of))


def _once(derivative: Any, call: Any, code: tuple[Any, ...],
          comparison: Callable[[], _Comparison]) -> None:
    """Run the comparison unless ``derivative`` passed it for the call's signature, or its
    ``code`` differs from finite differences on purpose."""
    key = _describe(call)
    passed = _PASSED.setdefault(derivative, set())
    try:
        if key in passed:
            return
    except TypeError:  # an unhashable dict key in an argument: check every call
        key = None
    if not _on_purpose(derivative, code):
        _check(comparison())
    if key is not None:
        passed.add(key)


def _on_purpose(derivative: Any, code: tuple[Any, ...]) -> bool:
    """Does the generated ``code`` (or a callee's) call ``sg.stop_gradient`` or
    ``sg.grad_hook``, whose derivatives differ from finite differences on purpose? Said once
    per derivative, with a warning."""
    if derivative not in _DELIBERATE:
        found = _deliberate_call(code)
        _DELIBERATE[derivative] = found is not None
        if found is not None:
            warnings.warn(f"check=True: this derivative calls sg.{found}, which makes it differ "
                          "from finite differences on purpose; it is not checked",
                          RuntimeWarning, stacklevel=4)
    return _DELIBERATE[derivative]


_DELIBERATE: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()


def _deliberate_call(code: tuple[Any, ...]) -> str | None:
    from .api import stop_gradient
    from .hooks import grad_hook

    targets = (stop_gradient, grad_hook)
    pending, seen = list(code), set()
    while pending:
        fn = pending.pop()
        if id(fn) in seen or not isinstance(fn, types.FunctionType):
            continue
        seen.add(id(fn))
        names = _names_read(fn.__code__)
        values = [cell.cell_contents for cell in fn.__closure__ or ()
                  if _has_contents(cell)] + [fn.__globals__.get(n) for n in names]
        for value in values:
            reached = [value] + ([getattr(value, n, None) for n in names]
                                 if isinstance(value, types.ModuleType) else [])
            for target in targets:
                if any(r is target for r in reached):
                    return target.__name__
            if isinstance(value, types.FunctionType) and hasattr(value, "source"):
                pending.append(value)  # a callee's generated code
    return None


def _names_read(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names_read(const)
    return names


def _has_contents(cell: types.CellType) -> bool:
    try:
        cell.cell_contents  # noqa: B018
    except ValueError:
        return False
    return True


# -- what each kind compares ----------------------------------------------------------------
class _Comparison:
    """One call of a derivative: the function at ``values``, which of them move along the
    random direction, the output's cotangent ``v`` and the output (``None``: not known yet)."""

    noun = "pullback (vjp)"
    derivative_text = "<pullback(v), u>"
    difference_text = "<v, (f(x + h u) - f(x - h u)) / 2h>"

    def __init__(self, fun: Callable, values: list[Any], moved: Sequence[bool],
                 cotangent: Any, value: Any, gradients: Sequence[Any] = ()) -> None:
        self.fun, self.values, self.moved = fun, values, list(moved)
        self.cotangent, self.value, self.gradients = cotangent, value, gradients

    def evaluate(self, *values: Any) -> Any:
        """The function with ``values`` in place of ``self.values``."""
        return self.fun(*values)

    def derivative(self, u: list[Any]) -> tuple[float, float]:
        """The derivative's inner product along ``u``, and the size it has for a random
        ``u``."""
        return _paired(self.gradients, u)


class _Gradient(_Comparison):
    noun = "gradient"
    derivative_text = "<gradient, u>"
    difference_text = "(f(x + h u) - f(x - h u)) / 2h"

    def __init__(self, fun: Callable, bound: inspect.BoundArguments, names: tuple[str, ...],
                 gradients: tuple, value: Any) -> None:
        values = [bound.arguments[n] for n in names]
        super().__init__(fun, values, [True] * len(values), 1.0, value, gradients)
        self.bound, self.names = bound, names

    def evaluate(self, *values: Any) -> Any:
        arguments = dict(self.bound.arguments)
        arguments.update(zip(self.names, values, strict=True))
        call = inspect.BoundArguments(self.bound.signature, arguments)  # type: ignore[arg-type]
        return self.fun(*call.args, **call.kwargs)


class _Tangent(_Comparison):
    noun = "tangent (jvp)"
    derivative_text = "<v, tangent_out(u)>"

    def __init__(self, fun: Callable, primals: list[Any], moved: Sequence[bool], value: Any,
                 tangent_of: Callable[[list[Any]], Any]) -> None:
        v = _random_like(np.random.default_rng(SEED + 1), value)
        super().__init__(fun, primals, moved, v, value)
        self.tangent_of = tangent_of

    def derivative(self, u: list[Any]) -> tuple[float, float]:
        tangent = self.tangent_of(u)
        return testing.tree_inner(self.cotangent, tangent), _norm(tangent)


# -- the comparison -------------------------------------------------------------------------
def _check(comparison: _Comparison) -> None:
    rng = np.random.default_rng(SEED)
    u = [_direction(rng, x) if moving else None
         for x, moving in zip(comparison.values, comparison.moved, strict=True)]
    if not any(leaf is not None for d in u for leaf in testing.tree_leaves(d)):
        return  # no float64 value to move: nothing finite differences can check
    lhs, size = comparison.derivative(u)
    disagreements = []
    for step in STEPS:
        rhs, noise = _difference(comparison, u, step)
        if not np.isfinite(rhs):
            continue  # the function is not finite (or cannot be evaluated) next to x
        if np.isfinite(lhs) and testing.inner_close(
                lhs, rhs, max(size, abs(lhs), abs(rhs)), RTOL, noise):
            return
        disagreements.append((step, rhs, noise))
    if not disagreements:
        return
    if not _differences_agree(disagreements, size):
        # the steps give different slopes: the function has a kink or a jump next to x
        # (a comparison or a max flipping), where finite differences say nothing
        warnings.warn(f"check=True could not check the {comparison.noun} of "
                      f"{_name(comparison.fun)}: finite differences along a random direction "
                      "do not settle (the function is not smooth there); the derivative was "
                      "not checked", RuntimeWarning, stacklevel=4)
        return
    raise _disagreement(comparison, lhs, disagreements, size)


def _differences_agree(differences: list[tuple], size: float) -> bool:
    """Do the finite differences of every step give one slope? A wrong derivative disagrees
    with a slope they agree on; steps that disagree among themselves measure no slope."""
    slopes = [(rhs, noise) for _, rhs, noise in differences]
    return all(testing.inner_close(a, b, max(size, abs(a), abs(b)), RTOL, noise_a + noise_b)
               for (a, noise_a), (b, noise_b) in zip(slopes, slopes[1:], strict=False))


def _difference(comparison: _Comparison, u: list[Any], step: float) -> tuple[float, float]:
    """``<v, central difference along u>`` with step ``step``, and how far rounding can move
    it; ``nan`` when the function cannot be evaluated there."""
    try:
        with np.errstate(all="ignore"):
            difference = testing.directional_difference(comparison.evaluate, comparison.values,
                                                        u, step)
            if comparison.value is None:
                comparison.value = comparison.evaluate(*comparison.values)
    except Exception as error:  # the function's own business, not the derivative's
        warnings.warn(f"check=True could not evaluate {_name(comparison.fun)} next to its "
                      f"arguments ({type(error).__name__}: {error}); the derivative was not "
                      "checked with this step", RuntimeWarning, stacklevel=2)
        return float("nan"), 0.0
    return (testing.tree_inner(comparison.cotangent, difference),
            testing.rounding_noise(comparison.cotangent, comparison.value, step))


def _disagreement(comparison: _Comparison, lhs: float, disagreements: list[tuple],
                  size: float) -> DerivativeCheckError:
    step, rhs, noise = disagreements[0]
    others = ", with ".join(f"h = {s:g}: {r:.12g}" for s, r, _ in disagreements[1:])
    gap = abs(lhs - rhs) / max(size, abs(lhs), abs(rhs), np.finfo(float).tiny)
    message = "\n".join([
        f"check=True: the {comparison.noun} sourcegrad made for {_name(comparison.fun)} "
        "disagrees with central finite differences (first call with these argument shapes):",
        f"  along a random direction u, the derivative gives  {comparison.derivative_text} = "
        f"{lhs:.12g}",
        f"  central finite differences give  {comparison.difference_text} = {rhs:.12g}  "
        f"(h = {step:g}" + (f"; with {others}" if others else "") + ")",
        f"  relative difference {gap:.2g}; tolerance {RTOL:g} plus rounding {noise:.2g}",
        "A rule registered with sg.defvjp / sg.defjvp for a function it calls is the usual "
        "cause; otherwise this is a bug in sourcegrad: please report it with the function.",
    ])
    return DerivativeCheckError(message, lhs, rhs)


# -- directions, sizes, signatures ----------------------------------------------------------
def _is_checkable(leaf: Any) -> bool:
    if isinstance(leaf, float):
        return True
    return isinstance(leaf, (np.ndarray, np.floating)) and leaf.dtype == np.float64


def _direction(rng: np.random.Generator, value: Any) -> Any:
    """A random direction for ``value``'s float64 leaves (``None`` at the others), each
    scaled by its leaf's size (at least 1), so that ``x + h u`` moves by about ``h x``."""
    def draw(leaf: Any) -> Any:
        if not _is_checkable(leaf):
            return None
        size = max(1.0, float(np.sqrt(np.mean(np.square(leaf))))) if np.size(leaf) else 1.0
        if not np.isfinite(size):
            return None
        d = rng.standard_normal(np.shape(leaf)) * size
        if _is_symmetric(leaf):  # rules of symmetric inputs (eigh, cholesky) assume it stays so
            d = (d + np.swapaxes(d, -1, -2)) / 2
        return float(d) if isinstance(leaf, float) else d
    return testing.tree_map(draw, value)


def _is_symmetric(leaf: Any) -> bool:
    """Square in its last two axes and symmetric up to rounding (``q @ diag(w) @ q.T``)."""
    shape = np.shape(leaf)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        return False
    scale = float(np.max(np.abs(leaf), initial=0.0))
    return bool(np.allclose(leaf, np.swapaxes(leaf, -1, -2), rtol=0.0, atol=1e-12 * scale))


def _random_like(rng: np.random.Generator, value: Any) -> Any:
    def draw(leaf: Any) -> Any:
        d = rng.standard_normal(np.shape(leaf))
        return float(d) if np.ndim(leaf) == 0 else d
    return testing.tree_map(draw, value)


def _paired(gradients: Sequence[Any], u: Sequence[Any]) -> tuple[float, float]:
    """``<gradients, u>``, and its size for a random ``u``: the norm of the gradient scaled
    leaf by leaf like ``u``."""
    total, size = 0.0, 0.0
    for g, d in zip(gradients, u, strict=True):
        for g_leaf, d_leaf in zip(testing.tree_leaves(g), testing.tree_leaves(d), strict=True):
            if g_leaf is None or d_leaf is None:
                continue
            total += float(np.sum(np.multiply(g_leaf, d_leaf)))
            scale = float(np.sqrt(np.mean(np.square(d_leaf)))) if np.size(d_leaf) else 0.0
            size += float(np.sum(np.square(g_leaf))) * scale ** 2
    return total, float(np.sqrt(size))


def _norm(tree: Any) -> float:
    return float(np.sqrt(sum(float(np.sum(np.square(np.abs(leaf))))
                             for leaf in testing.tree_leaves(tree) if leaf is not None)))


def _describe(value: Any) -> Any:
    """What a call's signature records of ``value``: structure, shapes and dtypes."""
    if isinstance(value, dict):
        return ("dict", tuple((k, _describe(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(_describe(v) for v in value))
    if isinstance(value, (np.ndarray, np.generic)):
        return ("array", value.shape, value.dtype.str)
    return type(value)


def _name(fun: Any) -> str:
    return f"`{getattr(fun, '__qualname__', getattr(fun, '__name__', repr(fun)))}`"
