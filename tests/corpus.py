"""Functions exercising every construct the reverse transformer supports.

Each entry of ``CASES`` names a function and builds its float64 arguments; the tests
differentiate each one with respect to its float arguments and compare with central finite
differences. Functions with branches or loops come with arguments that take each side of the
branch and run the loop 0, 1 and many times.
"""

import math

import numpy as np

SCALE = 0.5
TABLE = np.array([1.0, -2.0, 0.5])


def straight(x, w):
    h = np.tanh(x @ w)
    return np.sum(h ** 2)


def reassign(x):
    x = x - np.mean(x)
    x = x / np.sqrt(np.mean(x * x) + 1.0)
    return np.sum(x * x * x)


def augmented(x, y):
    z = x * 1.0
    z += y
    z -= 0.5 * x
    z *= y
    z /= 2.0
    z **= 2
    return np.sum(z)


def unary_and_abs(x):
    return np.sum(-x + (+x) * abs(x) + abs(x - 0.1))


def branch(x):
    if np.sum(x) > 0:
        y = x * 2.0
    else:
        y = np.sin(x)
    return np.sum(y * x)


def elif_chain(x, t):
    if t < 0:
        y = x ** 2
    elif t < 1:
        y = np.exp(x)
    else:
        y = x
    return np.sum(y)


def conditional_expression(x):
    y = x * 3.0 if np.sum(x) > 0 else -x
    return np.sum(y * x)


def boolean_conditions(x, t):
    if t > 0 and not t > 2 or t < -5:
        return np.sum(x ** 3)
    return np.sum(x)


def early_return(x):
    if np.max(x) > 10:
        return np.sum(x)
    y = np.exp(x)
    return np.sum(y * y)


def for_range(x, n):
    acc = 0.0
    for i in range(n):
        acc = acc + np.sum(np.sin(x * i))
    return acc


def loop_carried(x, n):
    for _ in range(n):
        x = np.tanh(x) * 1.5
    return np.sum(x)


def for_over_array(xs):
    total = 0.0
    for row in xs:
        total = total + np.sum(row ** 2)
    return total


def for_enumerate(xs):
    total = 0.0
    for i, x in enumerate(xs):
        total = total + i * np.sum(np.cos(x))
    return total


def for_zip(xs, ys):
    total = 0.0
    for x, y in zip(xs, ys, strict=False):
        total = total + np.sum(x * y)
    return total


def while_loop(x):
    y = x
    while np.sum(y * y) < 100.0:
        y = y * 1.7 + 0.1
    return np.sum(y)


def break_and_continue(x):
    total = 0.0
    for i in range(6):
        if i == 1:
            continue
        total = total + np.sum(x ** i)
        if i == 4:
            break
    return total


def return_in_loop(x):
    acc = x
    for _ in range(10):
        acc = acc * 1.1
        if np.sum(acc) > 5.0:
            return np.sum(acc * x)
    return np.sum(acc)


def nested_loops(x):
    total = 0.0
    for i in range(3):
        for j in range(i):
            total = total + np.sum(x[i] * x[j])
    return total


def subscript_read(x):
    return x[0] * x[2] + np.sum(x[1:] ** 2) + x[-1]


def subscript_write(x):
    y = np.zeros(4)
    y[0] = x[1] * 2.0
    y[1:3] = x[0:2] ** 2
    y[3] = y[0] + x[2]
    return np.sum(y * y)


def subscript_augmented(x, v):
    y = x * 1.0
    y[1] += v
    y[:, 0] *= 3.0
    return np.sum(y ** 2)


def mask_and_fancy(x):
    mask = x > 0
    idx = np.array([0, 2, 2])
    return np.sum(x[mask] ** 2) + np.sum(x[idx])


def new_axis(x):
    return np.sum(x[:, None] * x[None, :]) + np.sum(x[..., np.newaxis])


def list_append_stack(x):
    hs = []
    h = x
    for _ in range(3):
        h = np.tanh(h)
        hs.append(h)
    return np.sum(np.stack(hs) ** 2)


def list_comprehension(x):
    parts = [np.sin(x * k) for k in range(3)]
    return np.sum(np.stack(parts))


def tuples(x, y):
    pair = (x * 2.0, y)
    a, b = pair
    c, d = b, a
    return np.sum(c * d)


def dict_params(params, x):
    h = np.tanh(x @ params["w"] + params["b"])
    return np.sum(h)


def helper(a, scale=2.0):
    return np.sin(a) * scale


def calls_user_function(x):
    return np.sum(helper(x) + helper(x, scale=3.0))


def uses_globals(x):
    return np.sum(x * SCALE + TABLE)


def scalar_math(x, y):
    z = math.sin(x) * math.exp(y) + math.sqrt(x * x + 1.0)
    for _ in range(3):
        z = z * 0.9 + math.tanh(z)
    return z


def methods(x):
    y = x.T.reshape(2, 3).sum(axis=0) + x.mean() * x.max()
    return (y ** 2).sum() + x.ravel().dot(x.flatten()) + x.astype(float).min()


def comparisons_nondiff(x):
    n = x.shape[0]
    k = np.argmax(x)
    big = np.sum(x > 0)
    return np.sum(x) * n + x[k] * big + np.floor(1.5)


def returns_tuple(x, y):
    return x * y, np.sin(x)


def nested_def(x, w):
    def layer(h, scale=2.0):
        z = h * w
        if np.sum(z) > 0:
            return np.tanh(z) * scale
        return z

    y = layer(x)
    return np.sum(layer(y, scale=0.5) + y)


def more_methods(x):
    y = x.transpose(1, 0).squeeze().clip(-0.5, 0.7)
    z = x.prod(axis=0) + x.min(axis=1).sum() + x.std() + x.var(axis=0).sum()
    return np.sum(y) + np.sum(z) + x.cumsum(axis=1).sum() + x.copy()[0, 0] + x[:1, :1].item()


def append_then_array(x):
    rows = []
    for k in range(3):
        rows.append(x * k + np.cos(x))
    return np.sum(np.array(rows) ** 2)


def floor_div_and_mod(x):
    return np.sum(x % 0.7 + (x // 0.3) * x)


def make_closure(scale):
    offset = np.array([0.5, -0.5])

    def inner(x):
        return np.sum(np.sin(x * scale) + offset * x)

    return inner


closure_function = make_closure(1.5)


def while_with_counter(x, limit):
    steps = 0
    total = 0.0
    while steps < limit:
        total = total + np.sum(x * steps)
        x = x * 0.9
        steps += 1
    return total


def nondifferentiable_calls(x):
    n = x.shape[0] + x.ndim + x.size + len(x)
    base = np.zeros(n) + np.ones(n) + np.empty(n) * 0.0 + np.full(n, 2.0) + np.arange(n)
    like = np.zeros_like(x) + np.ones_like(x) + np.full_like(x, 3.0) + np.linspace(0, 1, len(x))
    order = np.argsort(x) + np.argmax(x) + np.argmin(x) + np.eye(len(x))[0]
    flags = np.isnan(x) | ~np.isfinite(x) | (x > 1.0) | (x == 0.0)
    rounded = np.floor(x) + np.ceil(x) + np.round(x) + np.rint(x) + np.trunc(x)
    noise = np.random.default_rng(0).standard_normal(len(x)) + np.random.rand(len(x)) * 0.0
    k = (n * 3) // 2 % 5
    return np.sum(x * (like + order + flags + rounded + noise + k)) + np.sum(base) * np.sum(x)


def where_broadcast(y):
    c = np.arange(12).reshape(3, 4) % 2 == 0
    return np.sum(np.where(c, 0.0, y) * np.arange(12.0).reshape(3, 4))


def nested_unpacking(x, y):
    (a, b), c = (x * 2.0, y), x
    total = 0.0
    for i, (u, v) in enumerate(zip(a, b, strict=True)):
        total = total + u * v * i
    return np.sum(a * b * c) + total


def loop_over_tuple(x, y):
    pair = (x * 1.5, np.sin(y))
    total = 0.0
    for item in pair:
        total = total + np.sum(item * item)
    return total
