"""The rule table as the runtime uses it: each NumPy row of the spec table (its first case)
called on tensors that require grad, ``backward`` of a weighted sum, against central
differences. The runtime reaches NumPy's functions through ``__array_function__`` and
``__array_ufunc__``, so every rule serves it without code of its own."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import bind_arguments, checkable_params, numerical_vjp, tree_leaves

from .rule_specs import SPECS, Arr

NOT_THROUGH_TENSORS = {
    # the runtime unwraps tensors one level deep inside lists (np.block nests them deeper)
    "block",
    # NumPy builds these without dispatching to a tensor argument (an ndarray comes back)
    "array", "asarray", "full", "full_like", "float64",
}


def _numpy_rows():
    for spec in SPECS:
        module = getattr(spec.primitive, "__module__", "") or ""
        if (isinstance(spec.primitive, np.ufunc) or module.startswith("numpy")) and (
                spec.name not in NOT_THROUGH_TENSORS):
            case = spec.cases[0]
            if any(isinstance(a, Arr) for a in tree_leaves([*case.args, *case.kwargs.values()])):
                yield pytest.param(spec, id=spec.name)


def _tensors(value, params_values):
    """``value`` with every array that is a differentiated argument made a tensor."""
    if isinstance(value, list):
        return [_tensors(v, params_values) for v in value]
    if any(value is p for p in params_values):
        return sg.tensor(value, requires_grad=True)
    return value


@pytest.mark.parametrize("spec", list(_numpy_rows()))
def test_the_runtime_differentiates_every_numpy_rule(spec):
    args, kwargs = spec.cases[0].build(seed=0)
    if spec.symmetric:
        args[0] = (args[0] + np.swapaxes(args[0], -1, -2)) / 2
    bound = bind_arguments(spec.primitive, args, kwargs)
    params = checkable_params(spec.primitive, args, kwargs)
    differentiated = [leaf for p in params for leaf in tree_leaves(bound.arguments[p])
                      if isinstance(leaf, np.ndarray)]
    if not differentiated:
        pytest.skip("no array argument to differentiate")
    t_args = [_tensors(a, differentiated) for a in args]
    t_kwargs = {k: _tensors(v, differentiated) for k, v in kwargs.items()}
    out = spec.primitive(*t_args, **t_kwargs)
    outputs = list(out) if isinstance(out, (list, tuple)) else [out]
    rng = np.random.default_rng(2)
    weights = [rng.standard_normal(np.shape(o.data)) for o in outputs]
    total = sum(((np.real(o) if np.iscomplexobj(o.data) else o) * w).sum()
                for o, w in zip(outputs, weights, strict=True) if o.requires_grad)
    total.backward()
    leaves = [t for a in [*t_args, *t_kwargs.values()] for t in tree_leaves(a)
              if isinstance(t, sg.Tensor) and t.requires_grad]
    for k, leaf in enumerate(leaves):
        def f(value, k=k):
            replaced = [value if j == k else leaf_j.data for j, leaf_j in enumerate(leaves)]
            it = iter(replaced)
            call_args = [_rebuild(a, it) for a in t_args]
            call_kwargs = {key: _rebuild(v, it) for key, v in t_kwargs.items()}
            result = spec.primitive(*call_args, **call_kwargs)
            parts = list(result) if isinstance(result, (list, tuple)) else [result]
            return sum(np.sum(np.real(p) * w) for p, w in zip(parts, weights, strict=True))

        expected = numerical_vjp(f, [leaf.data], 0, 1.0)
        if np.iscomplexobj(leaf.data):  # JAX's convention: d/d(real part) - i d/d(imaginary)
            expected = expected - 1j * numerical_vjp(lambda v, f=f, x=leaf.data: f(x + 1j * v),
                                                     [np.zeros(leaf.data.shape)], 0, 1.0)
        got = leaf.grad.data
        if spec.symmetric:  # a rule of one triangle of a symmetric input: symmetric parts
            got, expected = (got + got.swapaxes(-1, -2)) / 2, (expected + np.swapaxes(
                expected, -1, -2)) / 2
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def _rebuild(value, replacements):
    if isinstance(value, list):
        return [_rebuild(v, replacements) for v in value]
    if isinstance(value, sg.Tensor) and value.requires_grad:
        return next(replacements)
    return value
