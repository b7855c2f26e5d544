"""Central finite differences over structured arguments, for checking generated gradients."""

import dataclasses

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


# -- nested structures (pytrees), written here independently of sourcegrad.pytrees ---------
def _parts(x):
    """``(rebuild, [(key, child)...])`` for a structure, ``None`` for a leaf."""
    if isinstance(x, tuple) and hasattr(type(x), "_fields"):
        return (lambda values: type(x)(*values)), list(zip(x._fields, x, strict=True))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        names = [f.name for f in dataclasses.fields(x)]
        return (lambda values: dataclasses.replace(x, **dict(zip(names, values, strict=True)))
                ), [(n, getattr(x, n)) for n in names]
    if isinstance(x, dict):
        return (lambda values: dict(zip(x.keys(), values, strict=True))), list(x.items())
    if isinstance(x, (list, tuple)):
        return (lambda values: type(x)(values)), list(enumerate(x))
    return None


def _is_float(x):
    if isinstance(x, (bool, int, str)) or x is None:
        return False
    return isinstance(x, float) or np.asarray(x).dtype.kind == "f"


def tree_numerical_grad(f, args, argnum):
    """d f(*args) / d args[argnum] for a nested structure: the same structure and types,
    ``None`` at the leaves that are not floats."""
    def at(value):
        new = list(args)
        new[argnum] = value
        return float(f(*new))

    def walk(x, put):
        parts = _parts(x)
        if parts is None:
            if not _is_float(x):
                return None
            return _array_grad(lambda v: at(put(v)), x)
        rebuild, children = parts
        out = []
        for i, (_, child) in enumerate(children):
            def put_child(v, i=i):
                values = [c for _, c in children]
                values[i] = v
                return put(rebuild(values))
            out.append(walk(child, put_child))
        return rebuild(out)

    return walk(args[argnum], lambda v: v)


def assert_tree_close(actual, expected, rtol=1e-5, atol=1e-6):
    """Same containers (the same namedtuple or dataclass class, the same keys), ``None``
    where expected, and close leaves."""
    parts = _parts(expected)
    if parts is None:
        if expected is None:
            assert actual is None, f"expected None, got {actual!r}"
            return
        assert_close(actual, expected, rtol, atol)
        return
    assert type(actual) is type(expected), f"{type(actual)} is not {type(expected)}"
    got = _parts(actual)[1]
    assert [k for k, _ in got] == [k for k, _ in parts[1]]
    for (_, a), (_, e) in zip(got, parts[1], strict=True):
        assert_tree_close(a, e, rtol, atol)


def assert_every_mode_matches_differences(f, x, direction):
    """``sg.grad``, ``sg.jvp`` along ``direction`` and the runtime's ``.backward()`` of
    ``f`` at the array ``x``, each against central differences; the caller's arrays are
    left as they were (a derivative must not write into its arguments)."""
    import sourcegrad as sg

    given_x, given_direction = x.copy(), direction.copy()
    expected = numerical_grad(f, (x.copy(),), 0)
    assert_close(sg.grad(f)(x), expected)
    value, tangent = sg.jvp(f, (x,), (direction,))
    assert_close(value, f(x.copy()))
    assert_close(tangent, np.sum(expected * given_direction))
    leaf = sg.tensor(x.copy(), requires_grad=True)
    sg.differentiable(f)(leaf).backward()
    assert_close(leaf.grad.numpy(), expected)
    np.testing.assert_array_equal(x, given_x)
    np.testing.assert_array_equal(direction, given_direction)
