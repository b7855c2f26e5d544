"""Central finite differences over structured arguments, for checking generated gradients."""

import numpy as np

EPS = 1e-6


def numerical_grad(f, args, argnum):
    """d f(*args) / d args[argnum] by central differences, with the argument's structure."""
    arg = args[argnum]

    def at(value):
        new = list(args)
        new[argnum] = value
        return float(f(*new))

    if isinstance(arg, float):
        return (at(arg + EPS) - at(arg - EPS)) / (2 * EPS)
    if isinstance(arg, dict):
        out = {}
        for key in arg:
            def g(v, key=key):
                return at({**arg, key: v})
            out[key] = _array_grad(g, arg[key])
        return out
    if isinstance(arg, (list, tuple)):
        out = []
        for i in range(len(arg)):
            def g(v, i=i):
                items = list(arg)
                items[i] = v
                return at(type(arg)(items))
            out.append(_array_grad(g, arg[i]))
        return type(arg)(out)
    return _array_grad(at, arg)


def _array_grad(at, arr):
    if isinstance(arr, float):
        return (at(arr + EPS) - at(arr - EPS)) / (2 * EPS)
    arr = np.asarray(arr, dtype=np.float64)
    grad = np.zeros_like(arr)
    for index in np.ndindex(arr.shape):
        plus, minus = arr.copy(), arr.copy()
        plus[index] += EPS
        minus[index] -= EPS
        grad[index] = (at(plus) - at(minus)) / (2 * EPS)
    return grad


def assert_close(actual, expected, rtol=1e-5, atol=1e-6):
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and actual.keys() == expected.keys()
        for key in expected:
            assert_close(actual[key], expected[key], rtol, atol)
        return
    if isinstance(expected, (list, tuple)):
        assert type(actual) is type(expected) and len(actual) == len(expected)
        for a, e in zip(actual, expected, strict=True):
            assert_close(a, e, rtol, atol)
        return
    if isinstance(expected, float):
        assert isinstance(actual, float), f"expected a Python float, got {type(actual)}"
    else:
        assert np.shape(actual) == np.shape(expected)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)
