"""Generated gradients release values as soon as the backward sweep is done with them
(``passes/release.py``), keep only shapes where only shapes are read
(``passes/shape_only.py``), and stay correct on every path while doing so."""

import tracemalloc

import numpy as np
import pytest

import sourcegrad as sg
from benchmarks.functions import reduction

from .fd import assert_close, numerical_grad


def peak_bytes(fn, *args):
    fn(*args)  # transformed and compiled outside the measurement
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_large_elementwise_gradient_holds_few_arrays_at_once():
    x = np.random.default_rng(0).standard_normal(200_000)
    arrays = peak_bytes(sg.grad(reduction), x) / x.nbytes
    # the forward sweep keeps sin(x), -0.5 x and the window; the backward sweep's chain of
    # cotangents is released link by link (it held nine arrays at its peak before), and
    # each cotangent is computed where it is read (five arrays before that)
    assert arrays < 4.5


def released_in_a_branch(x):
    y = np.sin(x) * x
    if np.sum(x) > 0:
        z = np.exp(y) * y
    else:
        z = y * y
    return np.sum(z * x)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_values_bound_on_one_path_only_are_not_released(sign):
    x = sign * (np.abs(np.random.default_rng(1).standard_normal(4)) + 0.1)
    got = sg.grad(released_in_a_branch)(x)
    assert_close(got, numerical_grad(released_in_a_branch, (x,), 0))
    deletions = [line.split()[1:] for line in sg.source(released_in_a_branch).splitlines()
                 if line.strip().startswith("del ")]
    released = {name.rstrip(",") for names in deletions for name in names}
    assert "exp_y" not in released and "grad_exp_y" not in released  # one branch binds them
    assert {"grad_z", "sin_x"} <= released


def deletes_its_own_names(x):
    y = x * 3.0
    z = np.sin(y)
    del y
    return np.sum(z * z)


def test_user_code_may_del_a_name():
    x = np.random.default_rng(2).standard_normal(3)
    assert_close(sg.grad(deletes_its_own_names)(x), numerical_grad(deletes_its_own_names, (x,), 0))
    _, tangent = sg.jvp(deletes_its_own_names, (x,), (np.ones(3),))
    assert_close(tangent, np.sum(numerical_grad(deletes_its_own_names, (x,), 0)))


def test_second_derivatives_read_through_the_releases():
    x = np.random.default_rng(3).standard_normal(3)
    hessian = sg.hessian(released_in_a_branch)(x)
    columns = [numerical_grad(lambda v, k=k: sg.grad(released_in_a_branch)(v)[k], (x,), 0)
               for k in range(3)]
    assert_close(hessian, np.array(columns))
