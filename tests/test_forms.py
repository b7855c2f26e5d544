"""What ``fun`` may be (CONTRACT 1a): lambdas (one of several on a line too), lambdas and
functions defined inside the function differentiated, functions held in lists and passed as
arguments, functools.partial, bound/static/class methods, callable instances, *args and
**kwargs. Every value against central finite differences, in both modes, and at second order
where the form allows."""

import dataclasses
import functools
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import check_grads

from .fd import assert_close, numerical_grad

rng = np.random.default_rng(12)
X = rng.standard_normal(4)
Y = rng.standard_normal(4)


def fd(f, *args, argnum=0):
    return numerical_grad(f, args, argnum)


# -- lambdas ----------------------------------------------------------------------------------
square_sum, cube_sum = (lambda x: np.sum(x ** 2)), (lambda x: np.sum(np.sin(x) ** 3))
first, second, third = lambda x: np.sum(x), lambda x: np.sum(2 * x), lambda x: np.sum(x * x)
by_name = {"tanh": lambda x: np.sum(np.tanh(x)), "exp": lambda x: np.sum(np.exp(x))}


@pytest.mark.parametrize("fun", [square_sum, cube_sum, first, second, third, by_name["tanh"],
                                 by_name["exp"]])
def test_each_of_several_lambdas_on_a_line_is_its_own(fun):
    assert_close(sg.grad(fun)(X), fd(fun, X))
    value, tangent = sg.jvp(fun, (X,), (Y,))
    assert_close(tangent, float(np.dot(fd(fun, X), Y)))
    assert check_grads(fun, (X,), order=2)


def test_lambdas_on_one_line_are_named_after_their_names():
    assert "def grad_square_sum(x):" in sg.grad(square_sum).source
    assert "def grad_cube_sum(x):" in sg.grad(cube_sum).source
    assert "def grad_third(x):" in sg.grad(third).source
    assert "def grad_exp(x):" in sg.grad(by_name["exp"]).source
    # and the comments quote the user's line
    assert "# square_sum, cube_sum = (lambda x" in sg.grad(cube_sum).source


def test_an_anonymous_lambda_with_several_parameters_and_a_default():
    fun = sg.grad(lambda x, y, scale=2.0: scale * np.sum(np.sin(x) * y), wrt=(0, 1, "scale"))
    gx, gy, gs = fun(X, Y)
    assert "def grad_lambda(x, y, scale=2.0):" in fun.source
    assert_close(gx, 2.0 * np.cos(X) * Y)
    assert_close(gy, 2.0 * np.sin(X))
    assert_close(gs, float(np.sum(np.sin(X) * Y)))


def test_a_lambda_reading_a_closure_variable():
    def make(weights):
        return lambda x: np.sum(weights * x ** 2)

    fun = make(Y)
    assert_close(sg.grad(fun)(X), 2 * Y * X)
    assert check_grads(fun, (X,), order=2)


def test_a_lambda_returning_a_constant_and_the_identity():
    assert sg.grad(lambda x: 1.0)(2.0) == 0.0
    identity = lambda x: x  # noqa: E731
    assert sg.grad(identity)(2.0) == 1.0
    assert sg.grad(sg.grad(identity))(2.0) == 0.0


def test_third_derivative_of_a_lambda():
    fun = lambda x: np.sin(np.sin(x) + np.sin(x))  # noqa: E731
    d3 = sg.grad(sg.grad(sg.grad(fun)))
    x = 0.3
    eps = 1e-4
    d2 = sg.grad(sg.grad(fun))
    assert_close(d3(x), (d2(x + eps) - d2(x - eps)) / (2 * eps), rtol=1e-6, atol=1e-6)


# -- functions defined inside ----------------------------------------------------------------
def uses_local_lambdas(x):
    square = lambda v: v * v  # noqa: E731
    scaled = lambda v, k=3.0: k * np.sin(v)  # noqa: E731
    return np.sum(square(x) + scaled(x) + scaled(x, 0.5))


def uses_a_nested_def_reading_outer_variables(x, w):
    def layer(v):
        return np.tanh(w * v)
    h = layer(x)
    return np.sum(layer(h))


def test_lambdas_and_defs_inside_the_function():
    assert_close(sg.grad(uses_local_lambdas)(X), fd(uses_local_lambdas, X))
    assert check_grads(uses_local_lambdas, (X,), order=2)
    grads = sg.grad(uses_a_nested_def_reading_outer_variables, wrt=(0, 1))(X, Y)
    assert_close(grads, (fd(uses_a_nested_def_reading_outer_variables, X, Y),
                         fd(uses_a_nested_def_reading_outer_variables, X, Y, argnum=1)))
    assert check_grads(uses_a_nested_def_reading_outer_variables, (X, Y), order=2)


# -- function values: in lists, as arguments, as attributes ----------------------------------
def scaled_sin(x):
    return 2.0 * np.sin(x)


FUNCTIONS = [scaled_sin, np.cos, lambda v: v ** 3]


def sums_over_functions(x):
    total = 0.0
    for f in FUNCTIONS:
        total = total + np.sum(f(x))
    return total


def applies(f, x, y):
    return np.sum(f(x) * y)


def test_functions_held_in_a_list():
    expected = 2 * np.cos(X) - np.sin(X) + 3 * X ** 2
    assert_close(sg.grad(sums_over_functions)(X), expected)
    assert "pullback_of(f, x)" in sg.grad(sums_over_functions).source
    assert check_grads(sums_over_functions, (X,), order=1)


def test_a_function_passed_as_an_argument():
    grads = sg.grad(applies, wrt=(1, 2))(np.tanh, X, Y)
    assert_close(grads, (Y / np.cosh(X) ** 2, np.tanh(X)))
    _, tangent = sg.jvp(applies, (np.tanh, X, Y), (None, Y, X))
    assert_close(tangent, float(np.sum(Y * Y / np.cosh(X) ** 2 + np.tanh(X) * X)))


# -- partials, methods, callable instances -----------------------------------------------------
def loss(w, b, x, y):
    return np.mean((np.tanh(x * w + b) - y) ** 2)


def test_a_partial_differentiates_the_function_with_bound_arguments_constant():
    fixed = functools.partial(loss, x=X, y=Y)
    assert_close(sg.grad(fixed)(0.3, 0.1), fd(loss, 0.3, 0.1, X, Y))
    assert_close(sg.grad(fixed, wrt=1)(0.3, 0.1), fd(loss, 0.3, 0.1, X, Y, argnum=1))
    # wrt may name a bound argument: its gradient at the bound value
    assert_close(sg.grad(fixed, wrt="x")(0.3, 0.1), fd(loss, 0.3, 0.1, X, Y, argnum=2))
    # positional arguments bound in front: the call's positions count
    front = functools.partial(loss, 0.3)
    assert_close(sg.grad(front, wrt=0)(0.1, X, Y), fd(loss, 0.3, 0.1, X, Y, argnum=1))
    assert "def grad_loss(w, b, x, y):" in sg.grad(fixed).source
    value, tangent = sg.jvp(fixed, (0.3, 0.1), (1.0, 0.0))
    assert_close(tangent, fd(loss, 0.3, 0.1, X, Y))
    assert check_grads(fixed, (0.3, 0.1), order=1)
    assert check_grads(front, (0.1, X, Y), order=2)


class Model:
    scale = 2.0

    def __init__(self, w):
        self.w = w

    def predict(self, x):
        return np.sum(np.tanh(self.w * x))

    def __call__(self, x):
        return np.sum(self.w * x ** 2)

    @staticmethod
    def static(x):
        return np.sum(np.sin(x))

    @classmethod
    def klass(cls, x):
        return cls.scale * np.sum(x ** 3)


def test_bound_static_and_class_methods_and_callable_instances():
    model = Model(Y)
    assert_close(sg.grad(model.predict)(X), Y / np.cosh(Y * X) ** 2)
    assert_close(sg.grad(model)(X), 2 * Y * X)
    assert_close(sg.grad(Model.static)(X), np.cos(X))
    assert_close(sg.grad(Model.klass)(X), 6.0 * X ** 2)
    assert_close(sg.jvp(model.predict, (X,), (X,))[1],
                 float(np.dot(Y / np.cosh(Y * X) ** 2, X)))
    for fun in (model.predict, model, Model.klass):
        assert check_grads(fun, (X,), order=2)


@dataclasses.dataclass
class Linear:
    w: np.ndarray
    b: float

    def loss(self, x):
        return np.sum((self.w * x + self.b) ** 2)


def test_self_is_differentiated_when_wrt_names_it():
    layer = Linear(Y, 0.5)
    residual = Y * X + 0.5
    assert_close(sg.grad(layer.loss)(X), 2 * residual * Y)  # self a constant
    grad_self = sg.grad(Linear.loss, wrt="self")(layer, X)
    assert type(grad_self) is Linear
    assert_close(grad_self.w, 2 * residual * X)
    assert_close(grad_self.b, float(np.sum(2 * residual)))


def test_the_derivative_of_a_partial_is_differentiated_again():
    fixed = functools.partial(loss, x=X, y=Y)
    gradient = sg.grad(fixed)
    eps = 1e-5
    second = (gradient(0.3 + eps, 0.1) - gradient(0.3 - eps, 0.1)) / (2 * eps)
    assert_close(sg.grad(gradient)(0.3, 0.1), second, rtol=1e-5)


def decorated(fun):
    @functools.wraps(fun)
    def wrapper(*args, **kwargs):
        return fun(*args, **kwargs)
    return wrapper


@decorated
def wrapped(x):
    return np.sum(x ** 3)


def test_a_function_wrapped_with_functools_wraps_is_read_through():
    assert_close(sg.grad(wrapped)(X), 3 * X ** 2)


# -- *args and **kwargs -----------------------------------------------------------------------
def star(x, *rest, scale=1.0, **options):
    total = np.sum(x * rest[0]) + np.sum(np.sin(rest[1]))
    return scale * total * options["weight"]


def test_star_args_count_positions_as_the_call_passes_them():
    args = (X, Y, 2.0 * X)
    kwargs = {"scale": 1.5, "weight": 0.7}

    def at(*a):
        return star(*a, **kwargs)

    gx, g_rest0, g_rest1 = sg.grad(star, wrt=(0, 1, 2))(*args, **kwargs)
    assert_close(gx, fd(at, *args, argnum=0))
    assert_close(g_rest0, fd(at, *args, argnum=1))
    assert_close(g_rest1, fd(at, *args, argnum=2))
    assert_close(sg.grad(star, wrt=2)(*args, **kwargs), fd(at, *args, argnum=2))
    # a name in **kwargs, and the *args tuple as a whole
    weight = sg.grad(star, wrt="weight")(*args, **kwargs)
    assert_close(weight, float(star(*args, scale=1.5, weight=1.0)))
    rest = sg.grad(star, wrt="rest")(*args, **kwargs)
    assert isinstance(rest, tuple) and len(rest) == 2
    assert_close(rest[1], fd(at, *args, argnum=2))
    value, tangent = sg.jvp(lambda *a: np.sum(a[0] * a[1]), (X, Y), (Y, X))
    assert_close(tangent, float(np.sum(Y * Y + X * X)))


# -- emit ---------------------------------------------------------------------------------------
def test_emit_writes_the_gradient_of_a_module_level_lambda(tmp_path):
    source = tmp_path / "lambdas.py"
    source.write_text(textwrap.dedent("""\
        import numpy as np

        energy, other = (lambda x: np.sum(np.sin(x) ** 2)), (lambda x: np.sum(x))
        """))
    out = tmp_path / "grad_energy.py"
    done = subprocess.run([sys.executable, "-m", "sourcegrad", "emit", f"{source}:energy",
                           "-o", str(out)], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(
                              __import__("pathlib").Path(__file__).parent.parent),
                               "SOURCEGRAD_CACHE": "0"})
    assert done.returncode == 0, done.stderr
    namespace: dict = {}
    exec(compile(out.read_text(), str(out), "exec"), namespace)
    assert_close(namespace["grad_energy"](X), 2 * np.sin(X) * np.cos(X))


def scaled_wave(a, x, scale=1.0):
    return np.sin(x) * a * scale


def test_jacobian_hessian_and_hvp_of_partials_and_methods():
    jac = sg.jacobian(functools.partial(scaled_wave, 2.0))(X)
    assert_close(jac, np.diag(2.0 * np.cos(X)))
    jac = sg.jacobian(functools.partial(scaled_wave, scale=3.0), wrt=1)(0.5, X)
    assert_close(jac, np.diag(1.5 * np.cos(X)))
    model = Model(Y)
    assert_close(sg.hessian(model)(X), np.diag(2.0 * Y))  # model(x) = sum(w x^2)
    assert_close(sg.hvp(model)(X, X), 2.0 * Y * X)
    assert_close(sg.hessian(Model.klass)(X), np.diag(12.0 * X))
    with pytest.raises(TypeError, match="through \\*args"):
        sg.jacobian(lambda *a: a[0] * a[1], wrt=1)


def make_scaler(w):
    return lambda v: w * v


def calls_a_closure_over_its_argument(w, x):
    scale = make_scaler(w)
    return np.sum(scale(x))


def test_a_function_value_depending_on_the_differentiated_values_is_refused():
    with pytest.raises(sg.SourcegradError):
        sg.grad(calls_a_closure_over_its_argument)(2.0, X)
    # differentiating again a derivative that calls a function value: refused, not zero
    with pytest.raises(sg.UnsupportedSyntaxError):
        sg.grad(lambda x: np.sum(sg.grad(sums_over_functions)(x)))(X)
    # with respect to the other argument it is a constant: fine
    assert_close(sg.grad(calls_a_closure_over_its_argument, wrt=1)(2.0, X), np.full(4, 2.0))
