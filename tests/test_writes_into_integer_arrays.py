"""A float written into an integer or boolean array keeps no derivative (found by probes).

``k = np.zeros(3, dtype=int); k[0] = x[1] * 2.5`` truncates the value: ``k`` is a step
function of ``x``, whose derivative is zero. The adjoint of the write handed the written
value the cotangent of ``k[0]`` as if ``k`` held floats: wrong grad, vjp, jvp and hessian.
Where the text does not tell that the array written is a float one (``np.zeros(n)`` does),
the generated code passes the derivative through ``written_into``, zero for an integer
array. Checked against central differences at points away from the steps."""

import warnings

import numpy as np
import pytest

import sourcegrad as sg
from tests.fd import assert_close, numerical_grad


def element_of_int_zeros(x):
    k = np.zeros(3, dtype=int)
    k[0] = x[1] * 2.5
    return np.sum(x) + k[0] * x[2]


def slice_of_int_zeros(x):
    k = np.zeros(3, dtype=np.int32)
    k[:] = x * 2.5
    return np.sum(k * x)


def element_of_arange(x):
    k = np.arange(3)
    k[1] = x[0] * 3.0
    return np.sum(k * x)


def copy_of_an_int_argument(x, n):
    n = n.copy()
    n[0] = x[0] * 3
    return np.sum(n * x)


def bool_mask_written(x):
    b = np.zeros(3, dtype=bool)
    b[0] = x[0]
    return np.sum(b * x)


def rows_of_an_int_matrix_in_a_loop(x):
    k = np.zeros((2, 3), dtype=np.int64)
    y = np.zeros((2, 3))
    for i in range(2):
        y[i] = x * (i + 1.5)
        k[i] = x * (i + 2.5)
    return np.sum(k * y)


def fancy_index_into_full_int(x):
    k = np.full(3, 2)
    k[[0, 2, 0]] = x * 3.0
    return np.sum(k * x)


def full_like_of_an_int_array(x):
    k = np.full_like(np.arange(3), x[0] * 2.5)  # filled in the int array's dtype
    f = np.full_like(np.arange(3), x[1] * 2.5, dtype=float)
    return np.sum(k * x) + np.sum(f * x)


def float_copy_keeps_its_derivative(x):
    a = x.copy()
    a[1:] = a[:-1] * x[1:]
    a[0] = np.sin(x[2])
    return np.sum(a ** 2)


PROGRAMS = [element_of_int_zeros, slice_of_int_zeros, element_of_arange, bool_mask_written,
            rows_of_an_int_matrix_in_a_loop, fancy_index_into_full_int,
            full_like_of_an_int_array, float_copy_keeps_its_derivative]
X = np.array([1.3, 0.45, 2.2])  # no step of any truncation within the differences' reach
DIRECTION = np.array([0.5, -0.25, 1.0])


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_grad_vjp_jvp_and_runtime_match_differences(f):
    expected = numerical_grad(f, (X.copy(),), 0)
    assert_close(sg.grad(f)(X), expected)
    assert_close(sg.vjp(f, X)[1](1.0)[0], expected)
    value, tangent = sg.jvp(f, (X,), (DIRECTION,))
    assert_close(value, f(X.copy()))
    assert_close(tangent, float(expected @ DIRECTION))
    leaf = sg.tensor(X.copy(), requires_grad=True)
    sg.differentiable(f)(leaf).backward()
    assert_close(leaf.grad.numpy(), expected)


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_hessian_matches_differences_of_the_gradient(f):
    expected = np.stack([numerical_grad(lambda v, i=i: sg.grad(f)(v)[i], (X.copy(),), 0)
                         for i in range(3)])
    assert_close(sg.hessian(f)(X), expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("n", [np.array([1, 2, 3]), np.array([1.0, 2.0, 3.0])],
                         ids=["int", "float"])
def test_an_argument_of_either_dtype(n):
    f = copy_of_an_int_argument
    expected = numerical_grad(f, (X.copy(), n), 0)
    assert_close(sg.grad(f)(X, n), expected)
    value, tangent = sg.jvp(f, (X, n), (DIRECTION, None))
    assert_close(tangent, float(expected @ DIRECTION))


def test_sg_jit_compiles_the_check_away():
    f = rows_of_an_int_matrix_in_a_loop
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a helper without a compiled form warns
        compiled = sg.jit(sg.grad(f))
        assert_close(compiled(X), numerical_grad(f, (X.copy(),), 0))


def test_a_float_array_the_text_makes_is_written_without_a_check():
    def f(x):
        y = np.zeros(3)
        z = np.empty((3,), dtype=np.float32)
        w = np.full(3, 0.0)
        y[0] = x[0] * 2
        z[1] = x[1] * 2
        w[2] = x[2] * 2
        return np.sum(y * x) + np.sum(z * x) + np.sum(w * x)

    assert "written_into" not in sg.source(f)
    assert "written_into" not in sg.source(f, mode="forward")


def parameter_made_a_float_array_on_one_branch(x, k, fresh):
    if fresh:
        k = np.zeros(3)
    k[0] = x[0] * 2.5  # into the caller's integer array where `fresh` is false
    return np.sum(k * x)


@pytest.mark.parametrize("fresh", [False, True])
def test_a_parameter_is_not_known_to_be_a_float_array(fresh):
    f = parameter_made_a_float_array_on_one_branch
    args = (X.copy(), np.array([1, 2, 3]), fresh)
    expected = numerical_grad(f, (X.copy(), np.array([1, 2, 3]), fresh), 0)
    assert_close(sg.grad(f)(*args), expected)
