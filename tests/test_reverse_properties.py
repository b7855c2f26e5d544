"""Hypothesis drives shapes and values through generated gradients: broadcasting between
arguments of any compatible shapes, both sides of data-dependent branches, any trip count."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sourcegrad as sg

from .fd import assert_close, numerical_grad

SETTINGS = settings(max_examples=25, deadline=None)


def broadcasting(a, b):
    c = a * b + np.tanh(a) - b / (1.0 + b * b)
    return np.sum(c ** 2) + np.mean(np.exp(-c * c) * a)


def branches_and_loops(x, t, n):
    y = x * 1.0
    for _ in range(n):
        if t > 0:
            y = y * np.cos(y) + t
        else:
            y = np.sin(y) - y * t
        t = t - 0.7
    return np.sum(y * y)


def reduction_axes(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    s = np.sum(np.exp(x - m), axis=axis)
    return np.sum(np.log(s)) + np.sum(np.mean(x, axis=axis) ** 2)


floats = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False, width=64)


@SETTINGS
@given(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3),
       st.integers(0, 2**31 - 1))
def test_broadcasting_between_arguments(shapes, seed):
    rng = np.random.default_rng(seed)
    a, b = (rng.standard_normal(s) for s in shapes.input_shapes)
    grads = sg.grad(broadcasting, wrt=(0, 1))(a, b)
    for argnum, g in enumerate(grads):
        assert_close(g, numerical_grad(broadcasting, (a, b), argnum), rtol=1e-4)


@SETTINGS
@given(hnp.arrays(np.float64, st.integers(1, 4), elements=floats), floats,
       st.integers(0, 5))
def test_branches_and_trip_counts(x, t, n):
    # keep away from t values where a branch flips under the finite-difference step
    t = t if abs(t - 0.7 * round(t / 0.7)) > 1e-3 else t + 0.05
    grad_x, grad_t = sg.grad(branches_and_loops, wrt=(0, 1))(x, t, n)
    assert_close(grad_x, numerical_grad(branches_and_loops, (x, t, n), 0), rtol=1e-4,
                 atol=1e-5)
    assert_close(grad_t, numerical_grad(branches_and_loops, (x, t, n), 1), rtol=1e-4,
                 atol=1e-5)


@SETTINGS
@given(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3), st.integers(0, 2**31 - 1),
       st.data())
def test_reductions_over_any_axis(shape, seed, data):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    rng = np.random.default_rng(seed)
    x = rng.permutation(np.prod(shape)).reshape(shape) * 0.3 + rng.uniform(0, 0.1, shape)
    g = sg.grad(reduction_axes)(x, axis)
    assert_close(g, numerical_grad(reduction_axes, (x, axis), 0), rtol=1e-4)
