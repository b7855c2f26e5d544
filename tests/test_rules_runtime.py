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
    # NumPy builds these without dispatching to a tensor argument: it asks for an array,
    # which a tensor that requires grad refuses (see test_numpy_that_cannot_dispatch_refuses)
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


def _case(spec):
    """The row's first case: its arguments, and the arrays among them to differentiate."""
    args, kwargs = spec.cases[0].build(seed=0)
    if spec.symmetric:
        args[0] = (args[0] + np.swapaxes(args[0], -1, -2)) / 2
    bound = bind_arguments(spec.primitive, args, kwargs)
    params = checkable_params(spec.primitive, args, kwargs)
    differentiated = [leaf for p in params for leaf in tree_leaves(bound.arguments[p])
                      if isinstance(leaf, np.ndarray)]
    if not differentiated:
        pytest.skip("no array argument to differentiate")
    return args, kwargs, differentiated


@pytest.mark.parametrize("spec", list(_numpy_rows()))
def test_the_runtime_differentiates_every_numpy_rule(spec):
    args, kwargs, differentiated = _case(spec)
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


def _second_order_rows():
    for param in _numpy_rows():
        (spec,) = param.values
        args, kwargs = spec.cases[0].build(seed=0)
        if not any(np.iscomplexobj(leaf) for leaf in tree_leaves([*args, *kwargs.values()])
                   if isinstance(leaf, np.ndarray)):
            yield param


@pytest.mark.parametrize("spec", list(_second_order_rows()))
def test_the_runtime_differentiates_every_numpy_rule_twice(spec):
    """``create_graph=True`` through each rule's VJP (the helpers it calls included): the
    gradient of ``<grad, v>`` against central differences of the runtime's own first-order
    gradient. The loss ``sum(w * out + out**2 / 2)`` gives each VJP a cotangent that
    depends on the inputs, whose history it must keep. (Rows with complex arguments are left
    to the first-order test above.)"""
    args, kwargs, differentiated = _case(spec)
    rng = np.random.default_rng(2)
    out = spec.primitive(*args, **kwargs)
    weights = [rng.standard_normal(np.shape(o))
               for o in (list(out) if isinstance(out, (list, tuple)) else [out])]

    def gradients(values, create_graph=False):
        """The leaves (tensors of ``values``, standing for ``differentiated``) and the
        runtime's gradients of the loss with respect to them."""
        leaves = [sg.tensor(v, requires_grad=True) for v in values]
        replacements = {id(d): leaf for d, leaf in zip(differentiated, leaves, strict=True)}

        def tensor_of(value):
            if isinstance(value, list):
                return [tensor_of(v) for v in value]
            return replacements.get(id(value), value)

        result = spec.primitive(*[tensor_of(a) for a in args],
                                **{k: tensor_of(v) for k, v in kwargs.items()})
        outputs = list(result) if isinstance(result, (list, tuple)) else [result]
        parts = [(np.real(o) if np.iscomplexobj(o.data) else o, w)
                 for o, w in zip(outputs, weights, strict=True) if o.requires_grad]
        loss = sum((r * w + r * r / 2).sum() for r, w in parts)
        return leaves, sg.autograd.grad(loss, leaves, create_graph=create_graph,
                                        allow_unused=True)

    values = [np.array(d) for d in differentiated]
    directions = [rng.standard_normal(np.shape(v)) for v in values]
    leaves, grads = gradients(values, create_graph=True)
    live = [(g, v) for g, v in zip(grads, directions, strict=True)
            if g is not None and g.requires_grad]
    if not live:  # every gradient is constant in the inputs: the Hessian is zero
        second = [None] * len(leaves)
    else:
        penalty = sum((g * sg.tensor(v)).sum() for g, v in live)
        second = sg.autograd.grad(penalty, leaves, allow_unused=True)

    def pairing(value, k):
        moved = [value if j == k else v for j, v in enumerate(values)]
        return sum(np.sum(g.data * d) for g, d in zip(gradients(moved)[1], directions,
                                                      strict=True) if g is not None)

    for k, value in enumerate(values):
        expected = numerical_vjp(pairing, [value, k], 0, 1.0)
        got = np.zeros_like(value) if second[k] is None else second[k].data
        if spec.symmetric:
            got, expected = (got + got.swapaxes(-1, -2)) / 2, (expected + np.swapaxes(
                expected, -1, -2)) / 2
        # (relative to the largest entry: np.prod of 24 numbers is tiny, and so is its Hessian)
        atol = 1e-5 * np.max(np.abs(expected), initial=0.0) + 1e-8
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=atol, err_msg=f"leaf {k}")
