"""Check derivatives against central finite differences, in float64.

Public, so that users can check their own rules the way sourcegrad checks its own::

    from sourcegrad.testing import check_rule
    check_rule(np.tanh, [np.random.randn(3)])

Values may be arrays, Python or NumPy scalars, or (nested) lists and tuples of them; a
tangent or cotangent has the structure of the value it belongs to.

``__all__`` is the public API; the other functions here are the helpers of ``check_rule``
that the project's own rule tests call.
"""

from __future__ import annotations

import hashlib
import inspect
import linecache
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .callables import form_of
from .pytrees import tree_leaves, tree_map
from .rules.registry import Rule, lookup

__all__ = ["check_grads", "check_rule", "directional_difference", "numerical_jacobian",
           "numerical_jvp", "numerical_vjp", "tree_inner", "tree_leaves", "tree_map"]

Tree = Any


def tree_inner(a: Tree, b: Tree) -> float:
    """The sum over leaves of ``sum(a * b)``: the pairing of a cotangent with a tangent (its
    real part for complex values: JAX's convention, see ``rules/complex.py``; a ``None`` leaf
    on either side, a leaf without a direction, counts as zero).

    >>> sg.testing.tree_inner({"w": np.array([1.0, 2.0]), "b": 3.0},
    ...                       {"w": np.array([10.0, 100.0]), "b": None})
    210.0
    """
    return float(np.real(sum(np.sum(np.multiply(x, y)) for x, y in
                             zip(tree_leaves(a), tree_leaves(b), strict=True)
                             if x is not None and y is not None)))


def _abs(leaf: Any) -> Any:
    """``np.abs`` of a leaf; ``None`` (a leaf without a direction) stays ``None``."""
    return None if leaf is None else np.abs(leaf)


def _axpy(x: Tree, scale: float, d: Tree) -> Tree:
    """``x + scale * d`` leafwise; a ``None`` leaf of ``d`` leaves ``x``'s leaf as it is."""
    return tree_map(lambda xi, di: xi if di is None else xi + scale * di, x, d)


def _replaced(args: Sequence[Any], argnum: int, value: Any) -> list[Any]:
    return [value if i == argnum else a for i, a in enumerate(args)]


def numerical_jvp(f: Callable[..., Any], args: Sequence[Any], argnum: int, tangent: Tree,
                  eps: float = 1e-6, kwargs: dict[str, Any] | None = None) -> Tree:
    """``(f(x + eps t) - f(x - eps t)) / (2 eps)`` with ``x = args[argnum]``: the directional
    derivative of ``f`` along ``tangent``, to O(eps**2). Use float64 inputs.

    ``d(x**2) = 2x dx``:

    >>> sg.testing.numerical_jvp(lambda x: x ** 2, [np.array([1.0, 2.0, 3.0])], 0,
    ...                          np.array([1.0, 1.0, 0.0]))
    array([2., 4., 0.])
    """
    kwargs = kwargs or {}
    plus = f(*_replaced(args, argnum, _axpy(args[argnum], eps, tangent)), **kwargs)
    minus = f(*_replaced(args, argnum, _axpy(args[argnum], -eps, tangent)), **kwargs)
    return tree_map(lambda p, m: (_as_float64(p) - m) / (2 * eps), plus, minus)


def _as_float64(x: Any) -> np.ndarray:
    """``x`` in double precision (complex ones stay complex)."""
    return np.asarray(x, dtype=np.complex128 if np.iscomplexobj(x) else np.float64)


def _unit_tangents(x: Tree):
    """Every one-hot tangent of ``x`` (one per scalar it holds), in order."""
    leaves = tree_leaves(x)
    for k, leaf in enumerate(leaves):
        for index in np.ndindex(np.shape(leaf)):
            unit = np.zeros(np.shape(leaf))
            unit[index] = 1.0
            yield k, index, _with_leaf(x, k, unit)


def _with_leaf(x: Tree, k: int, value: Any) -> Tree:
    counter = iter(range(len(tree_leaves(x))))
    return tree_map(lambda leaf: value if next(counter) == k else np.zeros(np.shape(leaf)), x)


def numerical_vjp(f: Callable[..., Any], args: Sequence[Any], argnum: int, cotangent: Tree,
                  eps: float = 1e-6, kwargs: dict[str, Any] | None = None) -> Tree:
    """The cotangent of ``args[argnum]`` given the output's ``cotangent``, one central
    difference per scalar of the argument (so keep the argument small).

    >>> sg.testing.numerical_vjp(lambda x: x ** 2, [np.array([1.0, 2.0, 3.0])], 0,
    ...                          np.array([1.0, 1.0, 0.5]))
    array([2., 4., 3.])
    """
    grads = [np.zeros(np.shape(leaf)) for leaf in tree_leaves(args[argnum])]
    for k, index, unit in _unit_tangents(args[argnum]):
        grads[k][index] = tree_inner(cotangent,
                                     numerical_jvp(f, args, argnum, unit, eps, kwargs))
    counter = iter(grads)
    return tree_map(lambda _: next(counter), args[argnum])


def numerical_jacobian(f: Callable[..., Any], args: Sequence[Any], argnum: int,
                       eps: float = 1e-6, kwargs: dict[str, Any] | None = None) -> np.ndarray:
    """The Jacobian of an array-valued ``f`` with respect to the array ``args[argnum]``,
    shaped ``out.shape + arg.shape`` (as ``sg.jacobian`` returns it).

    >>> def f(x):
    ...     return np.array([x[0] * x[1], x[0] + x[1]])
    >>> sg.testing.numerical_jacobian(f, [np.array([2.0, 3.0])], 0)
    array([[3., 2.],
           [1., 1.]])
    """
    x = np.asarray(args[argnum], dtype=np.float64)
    columns = [numerical_jvp(f, args, argnum, unit, eps, kwargs)
               for _, _, unit in _unit_tangents(x)]
    out_shape = np.shape(f(*args, **(kwargs or {})))
    return np.reshape(np.stack(columns, axis=-1), out_shape + x.shape)


# ------------------------------------------------------------------------------ rule checks


def _is_float_tree(x: Tree) -> bool:
    """A float, an array of floats, or a structure with such a leaf (its other leaves are
    left alone)."""
    return any(isinstance(leaf, float) or (not isinstance(leaf, (bool, int)) and leaf is not None
                                           and np.asarray(leaf).dtype.kind in "fc")
               for leaf in tree_leaves(x))


def _random_like(rng: np.random.Generator, x: Tree, symmetric: bool = False) -> Tree:
    """Random values with ``x``'s structure: complex where ``x`` is complex."""
    def draw(leaf):
        if not _is_float_tree(leaf):
            return None  # an integer, a string...: no derivative along it
        d = rng.standard_normal(np.shape(leaf))
        if np.iscomplexobj(leaf):
            d = d + 1j * rng.standard_normal(np.shape(leaf))
        if symmetric and np.ndim(d) >= 2:
            d = (d + np.swapaxes(d, -1, -2)) / 2
        return float(d) if isinstance(leaf, float) else d
    return tree_map(draw, x)


def _assert_same_structure(got: Tree, expected: Tree, what: str) -> None:
    got_shapes = [np.shape(leaf) for leaf in tree_leaves(got)]
    expected_shapes = [np.shape(leaf) for leaf in tree_leaves(expected)]
    if got_shapes != expected_shapes:
        raise AssertionError(f"{what} has leaf shapes {got_shapes}, expected {expected_shapes}")


def inner_close(a: float, b: float, scale: float, rtol: float, noise: float) -> bool:
    """``a == b`` up to ``rtol`` relative to ``scale`` (the size the inner products can
    have) plus ``noise`` (the rounding error of the finite difference)."""
    return abs(a - b) <= rtol * scale + noise


def rounding_noise(cotangent: Tree, value: Tree, eps: float) -> float:
    """How far rounding can move ``<cotangent, finite difference>``: ``f(x +- eps d)`` carry
    rounding errors of about machine epsilon times ``|f|``, which the central difference
    divides by ``2 eps``."""
    return 10 * np.finfo(np.float64).eps / eps * tree_inner(
        tree_map(_abs, cotangent),
        tree_map(lambda a: np.abs(_as_float64(a)), value))


def call_with(primitive: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any],
              param: str, value: Any) -> Any:
    """``primitive(*args, **kwargs)`` with the argument bound to its rule's parameter
    ``param`` replaced by ``value``, passed the way the caller passed it (positionally or
    by keyword; a variadic parameter's value is a tuple)."""
    args, kwargs = _with_argument(primitive, args, kwargs, param, value)
    return primitive(*args, **kwargs)


def _with_argument(primitive: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any],
                   param: str, value: Any) -> tuple[list[Any], dict[str, Any]]:
    if param in kwargs:
        return list(args), {**kwargs, param: value}
    signature = bind_arguments(primitive, args, kwargs).signature
    i = list(signature.parameters).index(param)
    if signature.parameters[param].kind is inspect.Parameter.VAR_POSITIONAL:
        return [*args[:i], *value], dict(kwargs)
    return [*args[:i], value, *args[i + 1:]], dict(kwargs)


def rule_jvp(primitive: Callable[..., Any], param: str, tangent: Tree, ans: Any,
             args: Sequence[Any], kwargs: dict[str, Any] | None = None) -> Tree:
    """The output tangent that ``primitive``'s rule gives for the tangent of ``param``: its
    ``jvp_``, or for a ``linear`` rule the primitive applied to the tangent (and to zeros
    for its other differentiable arguments, as forward mode applies it)."""
    kwargs = dict(kwargs or {})
    record = _record(primitive)
    bound = bind_arguments(primitive, args, kwargs)
    if param in record.jvps:
        return record.jvps[param](tangent, ans, *bound.args, **bound.kwargs)
    args = list(args)
    for other in record.diff_params:
        if other != param and bound.arguments.get(other) is not None:
            zero = tree_map(lambda leaf: None if leaf is None else np.zeros_like(
                leaf, dtype=np.result_type(leaf, 1.0)), bound.arguments[other])
            args, kwargs = _with_argument(primitive, args, kwargs, other, zero)
    return call_with(primitive, args, kwargs, param, tangent)


def _bind(record: Rule, args: Sequence[Any], kwargs: dict[str, Any]) -> inspect.BoundArguments:
    """The call's arguments bound to the rule's parameters (its signature minus g/t, ans)."""
    fn = next(iter({**record.vjps, **record.jvps}.values()))
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())[2:]
    return sig.replace(parameters=params).bind(*args, **kwargs)


def _record(primitive: Callable[..., Any]) -> Rule:
    record = lookup(primitive)
    if record is None:
        raise LookupError(f"no rule is registered for {primitive!r}")
    return record


def bind_arguments(primitive: Callable[..., Any], args: Sequence[Any],
                   kwargs: dict[str, Any] | None = None) -> inspect.BoundArguments:
    """A call's arguments bound to the parameters of ``primitive``'s rule."""
    return _bind(_record(primitive), args, dict(kwargs or {}))


def checkable_params(primitive: Callable[..., Any], args: Sequence[Any],
                     kwargs: dict[str, Any] | None = None) -> list[str]:
    """The parameters of ``primitive``'s rule that this call gives float values, i.e. the
    ones ``check_rule`` checks."""
    bound = bind_arguments(primitive, args, kwargs)
    return [p for p in _record(primitive).diff_params
            if bound.arguments.get(p) is not None and _all_float(bound.arguments[p])]


def _all_float(x: Tree) -> bool:
    """Every leaf a float or an array of floats (a rule's parameter that also takes integer
    leaves, ``np.einsum``'s interleaved subscripts or ``np.gradient``'s coordinates, is
    checked through the whole functions that call it)."""
    leaves = tree_leaves(x)
    return bool(leaves) and all(_is_float_tree(leaf) for leaf in leaves)


def check_rule(primitive: Callable[..., Any], args: Sequence[Any],
               kwargs: dict[str, Any] | None = None, *, eps: float = 1e-6,
               rtol: float = 1e-6, directions: int = 2, symmetric: bool = False,
               seed: int = 0) -> list[str]:
    """Check the registered rule of ``primitive`` at ``args`` against central differences.

    For every parameter holding floats and having a rule: the VJP must have the parameter's
    shape (leaf by leaf) and satisfy ``<vjp(g), d> == <g, fd_jvp(d)>`` for a random output
    cotangent ``g`` and random directions ``d``; the JVP must equal the finite difference
    ``fd_jvp(d)`` entry by entry. ``symmetric`` draws symmetric matrix directions (for rules
    of symmetric inputs such as ``cholesky``). Raises ``AssertionError`` on a mismatch and
    returns the names of the parameters checked.

    >>> sg.testing.check_rule(np.tanh, [np.array([0.1, 0.5])])  # the parameters checked
    ['x']
    """
    kwargs = dict(kwargs or {})
    record = _record(primitive)
    rng = np.random.default_rng(seed)
    ans = primitive(*args, **kwargs)
    bound = bind_arguments(primitive, args, kwargs)
    checked = checkable_params(primitive, args, kwargs)
    for param in checked:
        value = bound.arguments[param]

        def f(v, param=param):
            return call_with(primitive, args, kwargs, param, v)

        for _ in range(directions):
            d = _random_like(rng, value, symmetric)
            fd = numerical_jvp(f, [value], 0, d, eps)
            if param in record.vjps:
                _check_vjp(record, param, ans, bound, d, fd, rng, rtol, eps)
            if record.has_jvp(param):
                jvp = rule_jvp(primitive, param, d, ans, args, kwargs)
                _check_jvp(record, param, jvp, fd, rtol)
    return checked


def _check_vjp(record: Rule, param: str, ans: Any, bound: inspect.BoundArguments, d: Tree,
               fd: Tree, rng: np.random.Generator, rtol: float, eps: float) -> None:
    g = tree_map(lambda leaf: rng.standard_normal(np.shape(leaf)), ans)
    vjp = record.vjps[param](g, ans, *bound.args, **bound.kwargs)
    _assert_same_structure(vjp, d, f"vjp_{param} of {record.name}")
    lhs, rhs = tree_inner(vjp, d), tree_inner(g, fd)
    scale = tree_inner(tree_map(_abs, vjp), tree_map(_abs, d)) + tree_inner(
        tree_map(_abs, g), tree_map(_abs, fd))
    if not inner_close(lhs, rhs, scale, rtol, rounding_noise(g, ans, eps)):
        raise AssertionError(f"vjp_{param} of {record.name}: <vjp(g), d> = {lhs!r} but "
                             f"finite differences give <g, J d> = {rhs!r}")


def _check_jvp(record: Rule, param: str, jvp: Tree, fd: Tree, rtol: float) -> None:
    _assert_same_structure(jvp, fd, f"jvp_{param} of {record.name}")
    for got, expected in zip(tree_leaves(jvp), tree_leaves(fd), strict=True):
        scale = max(1.0, float(np.max(np.abs(expected), initial=0.0)))
        if not np.allclose(got, expected, rtol=rtol, atol=rtol * scale):
            raise AssertionError(f"jvp_{param} of {record.name} = {got!r}, but finite "
                                 f"differences give {expected!r}")


# --------------------------------------------------------------- whole functions: check_grads


def check_grads(f: Callable[..., Any], args: Sequence[Any], modes: Sequence[str] = ("fwd", "rev"),
                order: int = 2, *, eps: float = 1e-6, rtol: float = 1e-5,
                seed: int = 0) -> bool:
    """Check sourcegrad's derivatives of the user function ``f`` at ``args``, up to ``order``.

    Along random directions ``u`` (over every float argument together) and a random output
    cotangent ``v``: ``"fwd"`` compares ``sg.jvp`` with the central difference
    ``(f(x + eps u) - f(x - eps u)) / (2 eps)``; ``"rev"`` compares ``<vjp(v), u>`` with
    ``<v, that difference>``; with both, ``<jvp(u), v> == <u, vjp(v)>`` (the dot-product
    test, which needs no finite difference). For ``order`` 2 and up the same checks run on
    ``lambda x0, x1...: sg.jvp(f, (x0, x1...), (u0, u1...))[1]`` (forward over forward,
    reverse over forward), and so on: a function written with the public API, which
    sourcegrad differentiates as it would the user's own. (Forward and reverse over reverse:
    check ``sg.grad(f)`` at order 1.) Raises ``AssertionError`` saying which check failed;
    returns ``True``.

    >>> def f(x):
    ...     return np.sum(np.sin(x) ** 2)
    >>> sg.testing.check_grads(f, [np.array([0.1, 0.2])])
    True

    A wrong rule is caught (the derivative of ``softsign`` is ``1 / (1 + |x|)**2``):

    >>> def softsign(x):
    ...     return x / (1.0 + np.abs(x))
    >>> @sg.defvjp(softsign)
    ... def softsign_vjp(g, ans, x):
    ...     return g / (1.0 + np.abs(x))  # a square forgotten
    >>> def g(x):
    ...     return np.sum(softsign(x))
    >>> sg.testing.check_grads(g, [np.array([0.5, -2.0])], modes=("rev",), order=1)
    Traceback (most recent call last):
    ...
    AssertionError: sg.vjp of g (order 1): <vjp(v), u> vs <v, finite differences>: ...
    """
    from .api import jvp, vjp

    unknown = set(modes) - {"fwd", "rev"}
    if unknown or not modes:
        raise ValueError(f"modes must be a non-empty subset of ('fwd', 'rev'); got {modes!r}")
    rng = np.random.default_rng(seed)
    args = list(args)
    floats = [i for i, a in enumerate(args) if _is_float_tree(a)]
    u = [_random_like(rng, a) if i in floats else None for i, a in enumerate(args)]
    value = f(*args)
    v = _random_like(rng, value)
    fd = directional_difference(f, args, u, eps)
    where = f"{getattr(f, '__name__', f)} (order {order})"
    tangent_out = None
    if "fwd" in modes:
        _, tangent_out = jvp(f, args, u)
        _assert_tree_close(tangent_out, fd, rtol, f"sg.jvp of {where} vs finite differences")
    if "rev" in modes:
        grads = vjp(f, *args)[1](v)
        lhs = sum(tree_inner(grads[i], u[i]) for i in floats)
        _assert_inner_close(lhs, tree_inner(v, fd), rtol, eps, v, value,
                            f"sg.vjp of {where}: <vjp(v), u> vs <v, finite differences>")
        if tangent_out is not None:
            dot = tree_inner(tangent_out, v)
            if not np.isclose(dot, lhs, rtol=1e-8, atol=1e-10):
                raise AssertionError(f"dot-product test of {where}: <jvp(u), v> = {dot!r} but "
                                     f"<u, vjp(v)> = {lhs!r}")
    if order > 1:
        check_grads(_public_jvp(f, len(args), u), args, modes, order - 1, eps=eps, rtol=rtol,
                    seed=seed + 1)
    return True


_DERIVATIVE = """\
def {name}(f, constants):
    {unpacked} = constants
    return lambda {params}: {body}
"""


def _public_jvp(f: Callable[..., Any], count: int, u: Sequence[Any]) -> Callable[..., Any]:
    """``lambda a0, a1...: sg.jvp(f, (a0, a1...), (u0, u1...))[1]``: the tangent of ``f``
    along ``u`` as a function of the point, made the way a user writes it."""
    params = [f"a{i}" for i in range(count)]
    tangents = [f"u{i}" for i in range(count)]
    spelled = ["None" if u[i] is None else tangents[i] for i in range(count)]  # not moved
    body = f"sg.jvp(f, ({', '.join(params)},), ({', '.join(spelled)},))[1]"
    return _derivative_lambda(f"jvp_of_{_label(f)}", params, tangents, body, list(u), f)


def _label(f: Callable[..., Any]) -> str:
    name = getattr(form_of(f).function, "__name__", "f")
    return name if name.isidentifier() else "lambda"


def _derivative_lambda(name: str, params: list[str], names: list[str], body: str,
                       values: list[Any], f: Callable[..., Any]) -> Callable[..., Any]:
    """The lambda ``body`` of ``params``, closing over ``f`` and ``names`` (bound to
    ``values``), with a source ``inspect`` reads (sourcegrad differentiates it)."""
    from . import api

    text = _DERIVATIVE.format(name=name, unpacked=", ".join([*names, ""]),
                              params=", ".join(params), body=body)
    filename = f"<sourcegrad.testing {name} {hashlib.sha256(text.encode()).hexdigest()[:10]}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace: dict[str, Any] = {"sg": api}
    exec(compile(text, filename, "exec"), namespace)  # noqa: S102 - our own template
    return namespace[name](f, values)


def directional_difference(f: Callable[..., Any], args: Sequence[Any], u: Sequence[Any],
                           eps: float) -> Tree:
    """``(f(x + eps u) - f(x - eps u)) / (2 eps)`` over all the arguments together (``None``
    in ``u``, for a whole argument or a leaf: not moved; a ``None`` output leaf, the gradient
    of an argument that is not a float: ``None``).

    Moving ``x`` only, the slope of ``x y`` is ``y``:

    >>> slope = sg.testing.directional_difference(lambda x, y: x * y, [2.0, 3.0], [1.0, None],
    ...                                           1e-6)
    >>> round(float(slope), 6)
    3.0
    """
    def moved(scale: float) -> list[Any]:
        return [a if d is None else _axpy(a, scale, d) for a, d in zip(args, u, strict=True)]
    plus, minus = f(*moved(eps)), f(*moved(-eps))
    return tree_map(lambda p, m: None if p is None else (_as_float64(p) - m) / (2 * eps),
                    plus, minus)


def _assert_tree_close(got: Tree, expected: Tree, rtol: float, what: str) -> None:
    _assert_same_structure(got, expected, what)
    for a, b in zip(tree_leaves(got), tree_leaves(expected), strict=True):
        if a is None or b is None:  # no derivative (an integer argument's gradient): zero
            if not (a is b or np.all(np.equal(b if a is None else a, 0.0))):
                raise AssertionError(f"{what}: got {a!r}, expected {b!r}")
            continue
        scale = max(1.0, float(np.max(np.abs(b), initial=0.0)))
        if not np.allclose(a, b, rtol=rtol, atol=rtol * scale):
            raise AssertionError(f"{what}: got {a!r}, expected {b!r}")


def _assert_inner_close(lhs: float, rhs: float, rtol: float, eps: float, v: Tree,
                        value: Tree, what: str) -> None:
    noise = rounding_noise(v, value, eps)
    if not inner_close(lhs, rhs, max(abs(lhs), abs(rhs), 1.0), rtol, noise):
        raise AssertionError(f"{what}: {lhs!r} != {rhs!r}")
