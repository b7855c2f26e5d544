"""Functions using constructs the transformer refuses, one per construct."""

import numpy as np

COUNTER = 0


def uses_try(x):
    try:
        y = np.log(x)
    except ValueError:
        y = x
    return np.sum(y)


def uses_with(x):
    with open("f") as handle:
        handle.read()
    return np.sum(x)


def uses_yield(x):
    yield np.sum(x)


def writes_global(x):
    global COUNTER
    COUNTER = COUNTER + 1
    return np.sum(x)


def uses_del(x):
    y = [x, x * 2.0]
    del y[0]
    return np.sum(y[0])


def maps_lambda(x):
    return np.sum(list(map(lambda v: v * v, x)))


def defines_class(x):
    class Box:
        pass
    return np.sum(x)


def uses_eval(x):
    return eval("np.sum(x)")


def nested_star_args(x):
    def inner(*vs):
        return vs[0]
    return np.sum(inner(x))


def star_call(x):
    return np.sum(np.add(*[x, x]))


def for_else(x):
    for _ in range(3):
        x = x * 2.0
    else:
        x = x + 1.0
    return np.sum(x)


def walrus(x):
    if (y := np.sum(x)) > 0:
        return y
    return -y


def attribute_store(x):
    x.flags.writeable = False
    return np.sum(x)


def nested_import(x):
    import math
    return math.sin(x)


def generator_expression(x):
    squares = (v * v for v in x)
    return sum(squares)


def writes_through_view(x):
    y = np.zeros((3, 2))
    v = y.T
    v[0] = x[1]
    return np.sum(y * x[0])


def recursive(x, n):
    if n == 0:
        return np.sum(x)
    return recursive(x * 2.0, n - 1)


def set_comprehension(x):
    distinct = {float(v) for v in x}
    return np.sum(x) * len(distinct)


def zips_into_one_name(xs, ys):
    total = 0.0
    for pair in zip(xs, ys, strict=False):
        total = total + np.sum(pair[0])
    return total


def calls_nested_badly(x):
    def inner(a, b):
        return a * b

    return np.sum(inner(x))
