"""Generated code never captures the user's names (issue 11, section 2).

The generated code calls helpers (``unbroadcast``, ``as_gradient``...), ``np``, ``math`` and
builtins by name, and copies the user's code, which may use the same names for other
things: a global function, a parameter, a local. The user's names keep their meaning; the
helper is spelled otherwise in that function (``unbroadcast_2``). Each test here gave a
wrong number or an error before.
"""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad import cache, emit

from . import collisions_np
from .fd import assert_close, numerical_grad

X = np.array([0.3, 0.7, -0.4])


# -- the user's functions, named like helpers ----------------------------------------------------
def unbroadcast(a, b):
    return a * b


def as_gradient(a, b):
    return a * b + 1.0


def issue_example(x):
    c = unbroadcast(2.0, 3.0)
    return np.sum(x * c)


def global_as_gradient(x):
    scale = as_gradient(2.0, 3.0)
    return np.sum(np.sin(x)) * scale


def parameter_np(x, np):
    return numpy.sum(numpy.sin(x) * np)


def local_shape_only(w, b, x):
    shape_only = 0.5
    prediction = np.tanh(x @ w + b)
    return np.mean(prediction ** 2) * shape_only


def local_unbroadcast(x):
    unbroadcast = x * 2.0
    return np.sum(unbroadcast * np.ones((2, 3)))


def local_len(xs):
    len = 2.0
    total = 0.0
    for x in xs:
        total = total + np.sum(np.sin(x)) * len
    return total


def reads_underscore(x):
    _ = 0.25
    y = x * _  # its adjoint reads `_` after the loop's, which counts down with a `_` of its own
    i = 0
    while i < 3:
        y = np.sin(y) * 1.5
        i += 1
    return np.sum(y)


def callee_with_a_helper_local(a):
    scalar_seed = 2.0
    unbroadcast = a * scalar_seed
    return np.sum(unbroadcast * np.ones((2, 3)))


def calls_the_callee(x):
    return callee_with_a_helper_local(x * x) * 1.5


def second_order(x):
    c = unbroadcast(2.0, 3.0)
    return np.sum(np.sin(x) * c)


import numpy  # noqa: E402  (the module's NumPy under its own name, for `parameter_np`)

FAMILY = {
    "issue_example": (issue_example, (X,)),
    "global_as_gradient": (global_as_gradient, (X,)),
    "parameter_np": (parameter_np, (X, 2.0)),
    "local_shape_only": (local_shape_only, (np.ones((3, 2)) * 0.3, np.array([0.1, -0.2]),
                                            np.arange(12.0).reshape(4, 3) / 10)),
    "local_unbroadcast": (local_unbroadcast, (X,)),
    "local_len": (local_len, (np.array([[0.3, 0.1], [0.7, -0.2]]),)),
    "reads_underscore": (reads_underscore, (X,)),
    "calls_the_callee": (calls_the_callee, (X,)),
    "namespace_np": (collisions_np.namespace_np, (X,)),
    "numpy_as_math": (collisions_np.numpy_as_math, (X,)),
}


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_reverse_mode_keeps_the_users_names(name):
    fn, args = FAMILY[name]
    assert_close(sg.grad(fn)(*args), numerical_grad(fn, args, 0))
    value, grad = sg.value_and_grad(fn)(*args)
    assert_close(value, fn(*args))
    assert_close(grad, numerical_grad(fn, args, 0))
    value, pullback = sg.vjp(fn, *args)
    assert_close(pullback(1.0)[0], numerical_grad(fn, args, 0))


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_forward_mode_keeps_the_users_names(name):
    fn, args = FAMILY[name]
    direction = np.linspace(0.5, -1.0, np.size(args[0])).reshape(np.shape(args[0]))
    value, tangent = sg.jvp(fn, args, (direction,) + (None,) * (len(args) - 1))
    assert_close(value, fn(*args))
    assert_close(tangent, np.sum(numerical_grad(fn, args, 0) * direction))


def test_the_issue_example_reads_the_users_function_and_renames_the_helper():
    source = sg.grad(issue_example).source
    assert "c = unbroadcast(2.0, 3.0)" in source
    assert "unbroadcast_2(" in source
    assert_close(sg.grad(issue_example)(np.array([0.3, 0.7])), np.array([6.0, 6.0]))
    forward = sg.source(issue_example, mode="forward")
    assert "c = unbroadcast(2.0, 3.0)" in forward


def test_a_parameter_named_np_is_the_users_and_numpy_keeps_a_name():
    source = sg.grad(parameter_np).source
    assert source.startswith("def grad_parameter_np(x, np):")
    # the user reads NumPy as `numpy` too: the rule's `np.cos` says `numpy.cos`
    assert "numpy.cos(x)" in source and "np.cos" not in source


def test_generated_code_without_collisions_is_spelled_as_before():
    def plain(x, w):
        return np.sum(np.tanh(x @ w))

    source = sg.grad(plain).source
    assert "unbroadcast(" in source or "matmul_vjp_x1(" in source
    assert "_2(" not in source and sg.grad(plain).helper_names == {}


def test_second_order_through_a_renamed_helper():
    expected = np.diag(-6.0 * np.sin(X))
    assert_close(sg.hessian(second_order)(X), expected)
    assert_close(sg.hvp(second_order)(X, np.ones(3)), expected @ np.ones(3))
    assert_close(sg.jacobian(sg.grad(second_order))(X), expected)

    def scalar(t):
        c = unbroadcast(2.0, 3.0)
        return np.sin(t) * c

    assert_close(sg.grad(sg.grad(scalar))(0.4), -6.0 * np.sin(0.4))
    assert_close(sg.grad(sg.grad(sg.grad(scalar)))(0.4), -6.0 * np.cos(0.4))


def test_a_decorated_function_keeps_the_users_names():
    decorated = sg.differentiable(issue_example)
    t = sg.tensor(X, requires_grad=True)
    decorated(t).backward()
    assert_close(t.grad.numpy(), np.full(3, 6.0))
    t = sg.tensor(X, requires_grad=True)
    sg.differentiable(local_unbroadcast)(t).backward()
    assert_close(t.grad.numpy(), np.full(3, 4.0))


def test_the_disk_cache_links_a_renamed_helper_again():
    cache.clear_memory()  # made here, so written to this test's cache directory
    first = sg.grad(local_len)(*FAMILY["local_len"][1])
    cache.clear_memory()
    hits = cache.STATS.disk_hits
    again = sg.grad(local_len)
    assert cache.STATS.disk_hits == hits + 1
    assert again.helper_names == {"len_2": "len"}
    assert_close(again(*FAMILY["local_len"][1]), first)


@pytest.mark.parametrize("name", ["issue_example", "local_len", "parameter_np",
                                  "calls_the_callee", "reads_underscore"])
def test_an_emitted_module_keeps_the_users_functions_and_the_helpers_apart(name):
    fn, args = FAMILY[name]
    header = emit.Header("tests/test_name_collisions.py", fn.__name__, ("x",), "reverse",
                         "0" * 16, "test")
    text = emit.module_text(sg.grad(fn), header)
    namespace = {"__name__": "emitted"}
    exec(compile(text, f"<emitted {name}>", "exec"), namespace)
    assert_close(namespace[f"grad_{fn.__name__}"](*args), numerical_grad(fn, args, 0))
    if name == "issue_example":
        assert "def unbroadcast(a, b):" in text and "def unbroadcast_2(g, x):" in text
        assert namespace["unbroadcast"](2.0, 3.0) == 6.0


def global_zeros_like_grad(a):
    return a * 0.0 + 4.0


def caller_collides_with_a_callees_helper(x, w):
    unbroadcast = 2.0  # the callee's generated code calls the helper `unbroadcast`
    return np.sum(x) * unbroadcast + inner_product(x * unbroadcast, w)


def inner_product(a, w):
    return np.sum(a * w)


def test_an_emitted_callee_reaches_the_helper_its_caller_renamed():
    args = (X, np.ones((2, 3)))
    fn = caller_collides_with_a_callees_helper
    header = emit.Header("t.py", fn.__name__, ("x",), "reverse", "0" * 16, "test")
    text = emit.module_text(sg.grad(fn), header)
    namespace = {"__name__": "emitted"}
    exec(compile(text, "<emitted>", "exec"), namespace)
    assert_close(namespace[f"grad_{fn.__name__}"](*args), numerical_grad(fn, args, 0))


unreduce = 2.0  # a constant of the user's named like a helper, read by the user's function


def doubled(v):
    return v * unreduce


def calls_a_function_reading_a_helper_name(x):
    c = doubled(3.0)  # not differentiated: emitted as it is, with what it reads
    return np.sum(np.sin(x) * np.ones((2, 3))) * c


def test_an_emitted_function_of_the_users_keeps_reading_its_own_constant():
    fn = calls_a_function_reading_a_helper_name
    header = emit.Header("t.py", fn.__name__, ("x",), "reverse", "0" * 16, "test")
    text = emit.module_text(sg.grad(fn), header)
    assert "unreduce(" in text and "unreduce_2 = 2.0" in text
    namespace = {"__name__": "emitted"}
    exec(compile(text, "<emitted>", "exec"), namespace)
    assert_close(namespace[f"grad_{fn.__name__}"](X), numerical_grad(fn, (X,), 0))
    assert namespace["doubled"](1.0) == 2.0


# -- user rules ----------------------------------------------------------------------------------
def cube(x):
    return x ** 3


def test_a_user_rule_reading_the_users_own_unbroadcast_is_not_inlined_as_the_helper(
        restore_the_rule_table):
    @sg.defvjp(cube)
    def cube_vjp(g, ans, x):
        return unbroadcast(g, 3 * x ** 2)  # the user's `unbroadcast`: a product

    def loss(x):
        return np.sum(cube(x))

    assert_close(sg.grad(loss)(X), 3 * X ** 2)


# -- the user's names equal to the generated functions' own names --------------------------------
forward_scaled = np  # read by scaled's body: the name of scaled's generated forward function
grad_reads_own_name = 3.0  # read by reads_own_name: the name of its gradient function
jvp_reads_own_name = 5.0


def scaled(a, b):
    return forward_scaled.sin(a) * b + a


def calls_scaled(x):
    return np.sum(scaled(x, x * 0.5))


def reads_own_name(x):
    return np.sum(np.sin(x)) * grad_reads_own_name + np.sum(x) * jvp_reads_own_name


def test_a_global_named_like_a_callees_generated_function_keeps_its_meaning():
    # fails on the old code: `def forward_scaled` shadowed the module read in its own body
    expected = numerical_grad(calls_scaled, (X,), 0)
    assert_close(sg.grad(calls_scaled)(X), expected)
    assert_close(sg.vjp(calls_scaled, X)[1](1.0)[0], expected)
    assert_close(sg.hessian(calls_scaled)(X),
                 np.stack([numerical_grad(lambda x, i=i: sg.grad(calls_scaled)(x)[i], (X,), 0)
                           for i in range(3)]))


def test_a_global_named_like_the_gradient_or_tangent_function_keeps_its_meaning():
    expected = numerical_grad(reads_own_name, (X,), 0)
    assert_close(sg.grad(reads_own_name)(X), expected)
    assert_close(sg.value_and_grad(reads_own_name)(X)[1], expected)
    direction = np.array([1.0, -2.0, 0.5])
    assert_close(sg.jvp(reads_own_name, (X,), (direction,))[1], expected @ direction)
