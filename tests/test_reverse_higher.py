"""Reverse mode over reverse mode: generated code, stacks and reversed loops included, is
differentiated again, to third order."""

import math

import numpy as np

import sourcegrad as sg

EPS = 1e-5


def looped(x):
    for _ in range(3):
        x = math.sin(x) * 1.5 + x * x
    return x


def branchy_loop(x):
    total = 0.0
    k = 0
    while k < 4:
        if x > 0.5:
            total = total + math.exp(-x) * k
        else:
            total = total + x * x * x
        x = x * 0.9 + 0.2
        k += 1
    return total


def array_loop(w):
    h = np.array([0.3, -0.2])
    for _ in range(3):
        h = np.tanh(h * w + 0.1)
    return np.sum(h * h)


def _derivative_by_differences(fn, x):
    return (fn(x + EPS) - fn(x - EPS)) / (2 * EPS)


def test_second_derivatives_through_loops_and_branches():
    for fn, x in [(looped, 0.3), (branchy_loop, 0.4), (branchy_loop, 0.9)]:
        first = sg.grad(fn)
        second = sg.grad(first)
        np.testing.assert_allclose(second(x), _derivative_by_differences(first, x), rtol=1e-6)


def test_third_derivative_through_a_loop():
    second = sg.grad(sg.grad(looped))
    third = sg.grad(second)
    np.testing.assert_allclose(third(0.3), _derivative_by_differences(second, 0.3), rtol=1e-5)


grad_array_loop = sg.grad(array_loop)


def directional(w, v):
    return np.sum(grad_array_loop(w) * v)


def test_reverse_over_reverse_on_arrays_matches_the_hessian():
    w = np.array([0.7, -1.1])
    v = np.array([0.4, 0.9])
    hv = sg.grad(directional)(w, v)
    np.testing.assert_allclose(hv, sg.hessian(array_loop)(w) @ v, rtol=1e-8)
