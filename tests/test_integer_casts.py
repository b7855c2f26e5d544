"""A cast to an integer or boolean dtype has no derivative (found by probes).

``x.astype(int) * x``, ``np.sum(x, dtype=int)``, ``np.array(v, dtype=bool)``: the cast's
result is a step function of ``x``, whose derivative is zero almost everywhere (JAX and
PyTorch give zero too). sourcegrad passed the cotangent through the cast as if it were to a
float type: wrong grad, jvp, vjp and hessian. Where the text names the dtype, the call now
has no derivative; where it does not (``x.astype(k.dtype)``), the generated code passes the
derivative through ``through_cast``, zero for an integer dtype. Checked against central
differences at points away from the steps."""

import re

import numpy as np
import pytest

import sourcegrad as sg
from tests.fd import assert_close, numerical_grad

INT_ALIAS = np.int16  # a global naming the dtype: resolved as the text's own names are


def astype_int(x):
    return np.sum(x.astype(int) * x)


def astype_spellings(x):
    return (np.sum(x.astype("int64") * x) + np.sum(x.astype(dtype=np.int32) * x ** 2)
            + np.sum(x.astype(np.dtype("i4")) * x) + np.sum(x.astype(INT_ALIAS) * x))


def astype_bool(x):
    return np.sum(x.astype(bool) * x) + np.sum((x - 1.0).astype(np.bool_) * x ** 2)


def asarray_and_array(x):
    return (np.sum(np.asarray(x * 2, dtype=int) * x)
            + np.sum(np.array(x * 2, dtype=np.int32) * x)
            + np.sum(np.asarray(x * 3, np.uint8) * x))


def reductions_with_dtype(x):
    return (np.sum(x * 2, dtype=int) * x[0] + np.sum(np.cumsum(x * 2, dtype=int) * x)
            + np.prod(x * 2, dtype=int) * x[1] + np.mean(x * 3, dtype=int) * x[2])


def constructors_with_dtype(x):
    return (np.sum(np.full(3, x[0] * 2.5, dtype=int) * x)
            + np.sum(np.array([x[0] * 2.5, x[1]], dtype=int) * x[:2])
            + np.sum(np.concatenate([x, x * 2], dtype=int, casting="unsafe") * np.arange(6.0)))


def float_casts_keep_their_derivative(x):
    return np.sum(x.astype(np.float64) * x) + np.sum(np.asarray(x, dtype=float) ** 3)


PROGRAMS = [astype_int, astype_spellings, astype_bool, asarray_and_array,
            reductions_with_dtype, constructors_with_dtype, float_casts_keep_their_derivative]
X = np.array([1.3, 0.45, 2.2])  # no step of any cast above within the differences' reach


def _expected(f, x):
    return numerical_grad(f, (x.copy(),), 0)


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_grad_vjp_and_jvp_match_differences(f):
    expected = _expected(f, X)
    assert_close(sg.grad(f)(X), expected)
    value, pullback = sg.vjp(f, X)
    assert_close(pullback(1.0)[0], expected)
    direction = np.array([0.5, -0.25, 1.0])
    value, tangent = sg.jvp(f, (X,), (direction,))
    assert_close(value, f(X.copy()))
    assert_close(tangent, float(expected @ direction))


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_hessian_matches_differences_of_the_gradient(f):
    expected = np.stack([numerical_grad(lambda v, i=i: sg.grad(f)(v)[i], (X.copy(),), 0)
                         for i in range(3)])
    assert_close(sg.hessian(f)(X), expected, rtol=1e-4, atol=1e-5)


def cast_to_a_dtype_held_by_a_value(x, like):
    return np.sum(x.astype(like.dtype) * x) + np.sum(np.sum(x * 2, dtype=like.dtype) * x)


@pytest.mark.parametrize("like", [np.arange(2), np.arange(2.0), np.zeros(2, dtype=bool)],
                         ids=["int", "float", "bool"])
def test_a_dtype_known_when_the_code_runs(like):
    f = cast_to_a_dtype_held_by_a_value
    expected = numerical_grad(f, (X.copy(), like), 0)
    assert_close(sg.grad(f)(X, like), expected)
    direction = np.array([0.5, -0.25, 1.0])
    value, tangent = sg.jvp(f, (X, like), (direction, None))
    assert_close(tangent, float(expected @ direction))
    expected_hessian = np.stack([
        numerical_grad(lambda v, i=i: sg.grad(f)(v, like)[i], (X.copy(),), 0)
        for i in range(3)])
    assert_close(sg.hessian(f)(X, like), expected_hessian, rtol=1e-4, atol=1e-5)


def test_an_integer_cast_writes_no_derivative_code():
    source = sg.source(astype_int)
    assert not re.search(r"\bgrad_x_astype\b", source), source  # no cotangent for the cast
    assert "through_cast" not in source


def object_array_of_floats(x):
    return float(np.sum(np.array([x[0], x[1] * 2], dtype=object) ** 2)
                 + np.sum(x.astype(object) * x[2]))


def test_a_cast_to_object_keeps_the_derivative():
    # an object array holds the Python floats themselves: it is no integer cast
    expected = numerical_grad(object_array_of_floats, (X.copy(),), 0)
    assert_close(sg.grad(object_array_of_floats)(X), expected)
