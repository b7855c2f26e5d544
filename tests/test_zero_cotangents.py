"""Symbolic zero cotangents across calls (issue 14): where a caller never reads part of
what a callee returns (``h, cache = step(...)`` with ``cache`` unread, ``hs, _ = f(...)``),
it passes ``None`` there, and the callee's backward is made for the other outputs only
(``return new_h, no_cotangent(cache)``), instead of a zero pushed through its body."""

import json

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad import pipeline
from sourcegrad.pipeline import NotSpecialised

from .fd import assert_close, numerical_grad
from .golden_functions import step
from .test_cache import CALLER_SCRIPT, run_python, unique, write_module


def step_loop(w, xs):
    h = np.zeros(xs.shape[1])
    for t in range(xs.shape[0]):
        h, cache = step(h, xs[t], w)
    return np.sum(h ** 2)


def branchy_step(h, x, w):
    if np.sum(x) > 0:
        new_h = np.tanh(h * w + x)
    else:
        new_h = np.sin(h * w - x)
    return new_h, (x, new_h)


def branchy_loop(w, xs):
    h = 0.5 * np.ones(xs.shape[1])
    for t in range(xs.shape[0]):
        h, _ = branchy_step(h, xs[t], w)
    return np.sum(h ** 2)


def two_returns(h, w):
    if np.sum(h) > 0:
        return np.tanh(h * w), h
    return np.sin(h * w), h


def two_returns_loop(w, h):
    for _ in range(3):
        h, unused = two_returns(h, w)
    return np.sum(h ** 2)


def cache_read_loop(w, xs):
    h = np.zeros(xs.shape[1])
    total = 0.0
    for t in range(xs.shape[0]):
        h, cache = step(h, xs[t], w)
        total = total + np.sum(cache[0] * cache[1])
    return total + np.sum(h ** 2)


def nested(w, xs):
    states, caches = run_steps(w, xs)
    return np.sum(states[-1] ** 2)


def run_steps(w, xs):
    h = np.zeros(xs.shape[1])
    states, caches = [], []
    for t in range(xs.shape[0]):
        h, cache = step(h, xs[t], w)
        states.append(h)
        caches.append(cache)
    return states, caches


rng = np.random.default_rng(0)
W, XS = rng.standard_normal(3), rng.standard_normal((4, 3))


def check_against_central_differences(fun, *args):
    got = sg.grad(fun)(*args)
    assert_close(got, numerical_grad(fun, args, 0), rtol=1e-6, atol=1e-8)
    return sg.grad(fun)


def test_an_unread_cache_is_passed_as_none_and_not_differentiated():
    grad = check_against_central_differences(step_loop, W, XS)
    assert "grad_step_h = [grad_h, None]" in grad.source
    text = pipeline.module_source(grad)
    assert "result = new_h, no_cotangent(cache)" in text
    assert "grad_result[1]" not in text and "zeros_like_grad(cache" not in text


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_both_branches_of_a_callee_made_without_an_output_cotangent(sign):
    xs = sign * np.abs(XS)  # the sum of each row decides the branch
    grad = check_against_central_differences(branchy_loop, W, xs)
    assert "[grad_h, None]" in grad.source


def test_a_callee_without_a_tuple_return_gets_zeros_as_before():
    with pytest.raises(NotSpecialised):
        pipeline.split_functions(two_returns, ("h", "w"), zero_outputs=(1,))
    for h in (np.abs(W), -np.abs(W)):
        grad = check_against_central_differences(two_returns_loop, W, h)
        assert "None]" not in grad.source and "zeros_like_grad(unused)" in grad.source


def test_a_cache_the_caller_reads_carries_its_cotangent():
    grad = check_against_central_differences(cache_read_loop, W, XS)
    assert "None]" not in grad.source


def test_lists_of_caches_returned_through_another_function():
    grad = check_against_central_differences(nested, W, XS)
    assert "[grad_states, None]" in grad.source
    assert "no_cotangent(caches)" in pipeline.module_source(grad)


def test_the_disk_cache_spelling_of_the_variant_gives_the_same_functions():
    made = pipeline.split_functions(step, ("h", "w"), zero_outputs=(1,))
    assert pipeline.split_functions(step, ("h", "w"), option="zero=1") == made
    assert pipeline.split_functions(step, ("h", "w")) != made


def test_a_new_process_loads_the_variant_from_disk(tmp_path, private_cache_dir):
    name = unique("zeromod")
    write_module(tmp_path, name, """
        import numpy as np

        def step(h, w):
            new_h = np.tanh(h * w)
            return new_h, (h, new_h)

        def loss(x):
            h, cache = step(x, 0.5)
            h, cache = step(h, 0.5)
            return np.sum(h ** 2)
    """)
    script = CALLER_SCRIPT.format(module=name, derivative=f"sg.grad({name}.loss)(x)")
    x = np.array([0.25, 1.5, -2.0])
    h1 = np.tanh(0.5 * x)
    h2 = np.tanh(0.5 * h1)
    expected = 2 * h2 * (1 - h2 ** 2) * 0.5 * (1 - h1 ** 2) * 0.5
    first = json.loads(run_python(script, private_cache_dir, [tmp_path]))
    second = json.loads(run_python(script, private_cache_dir, [tmp_path]))
    assert first["transformations"] == 2 and second["transformations"] == 0
    np.testing.assert_allclose(first["grad"], expected)
    np.testing.assert_allclose(second["grad"], expected)
