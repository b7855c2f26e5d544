"""Rules as users reach them: Python's operators, builtins and casts in differentiated code,
to second order; and the derivatives sourcegrad refuses, each with a message rather than a
wrong number."""

import math
import operator

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.rules import RULES
from sourcegrad.testing import bind_arguments, check_grads, checkable_params, tree_leaves

from .rule_specs import SPECS

rng = np.random.default_rng(17)


def builtins_and_casts(x, y):
    a = abs(x - 0.3) + max(x, y, x * y) - min([x, 0.2, y * y])
    b = math.fsum([x, x * y, 2.0]) + float(np.float64(x) * y) + np.int64(3) * x
    q, r = divmod(x, 0.7)
    return a * b + r * q + (y % 0.4) * x


def the_operator_module(x, y):
    z = operator.add(operator.mul(x, y), operator.neg(operator.truediv(x, 2.0)))
    return np.sum(operator.pow(z, 2)) + np.sum(operator.getitem(operator.matmul(x, y.T), 0))


def test_python_builtins_and_casts_differentiate_twice():
    args = [1.3, -0.45]
    assert check_grads(builtins_and_casts, args, modes=("fwd", "rev"), order=2)
    assert check_grads(sg.grad(builtins_and_casts), args, modes=("fwd", "rev"), order=1)
    assert isinstance(sg.grad(builtins_and_casts)(*args), float)


def test_the_operator_module_differentiates_twice():
    args = [rng.standard_normal((2, 3)), rng.standard_normal((2, 3))]
    assert check_grads(the_operator_module, args, modes=("fwd", "rev"), order=2)
    assert check_grads(sg.grad(the_operator_module), args, modes=("fwd", "rev"), order=1)


def builtin_power(x, y):
    return np.sum(pow(x, y) + pow(x, 3) * y) + pow(np.sum(x * x), 0.5)


def test_pythons_two_argument_pow_differentiates_twice():
    """``pow(x, y)`` is ``x ** y``: the rule of ``np.power``, both arguments, to second
    order in forward and reverse mode (positive bases: the exponent's derivative is
    ``log(x)``)."""
    args = [rng.uniform(0.5, 2.0, (2, 3)), rng.standard_normal(3)]
    assert check_grads(builtin_power, args, modes=("fwd", "rev"), order=2)
    args = [1.3, -0.45]
    assert check_grads(builtin_power, args, modes=("fwd", "rev"), order=2)
    assert isinstance(sg.grad(builtin_power)(*args), float)


def modular_power_of_a_float(x):
    return pow(x, 3, 5) * x


def modular_power_of_integers(x, n):
    k = pow(n, 3, 5)
    return x * k


def test_pythons_modular_pow_has_no_derivative_and_says_so():
    with pytest.raises(sg.NoDerivativeError, match=r"pow\(base, exp, mod\)") as caught:
        sg.grad(modular_power_of_a_float)
    message = str(caught.value)
    assert "modular exponentiation" in message and "base ** exp" in message
    assert "return pow(x, 3, 5) * x" in message and __file__ in message  # the user's line
    # of integers that carry no derivative it is a constant, computed as Python does
    assert sg.grad(modular_power_of_integers)(2.0, 4) == float(pow(4, 3, 5))


def test_ties_of_pythons_max_share_the_cotangent():
    def f(x):
        return max(x, 1.0, x)

    assert sg.grad(f)(1.0) == pytest.approx(2.0 / 3.0)
    assert sg.grad(f)(2.0) == 1.0


def test_parameters_that_take_sequences_are_declared():
    """Reverse mode adds the cotangents of a variable passed to a parameter that takes a list
    element by element; each rule whose VJP hands back a list for a list must say so."""
    for spec in SPECS:
        record = RULES[spec.primitive]
        for case in spec.cases:
            args, kwargs = case.build(seed=0)
            bound = bind_arguments(spec.primitive, args, kwargs)
            for param in checkable_params(spec.primitive, args, kwargs):
                if param == record.varargs or not isinstance(bound.arguments[param],
                                                              (list, tuple)):
                    continue
                ans = spec.primitive(*args, **kwargs)
                g = [np.ones(np.shape(leaf)) for leaf in tree_leaves(ans)]
                g = g[0] if not isinstance(ans, (list, tuple)) else type(ans)(g)
                cotangent = record.vjps[param](g, ans, *bound.args, **bound.kwargs)
                if isinstance(cotangent, (list, tuple)):
                    assert param in record.sequence_params, (spec.name, param)


@pytest.mark.parametrize(("f", "args", "message"), [
    (lambda a: np.sum(np.linalg.svd(a)[0]), [rng.standard_normal((4, 3))],
     "full_matrices=False"),
    (lambda a: np.sum(np.linalg.qr(a, "complete")[0]), [rng.standard_normal((4, 3))],
     "mode='reduced'"),
    (lambda a: np.sum(np.linalg.eig(a)[0].real),
     [np.array([[0.0, -1.0, 0.2], [1.0, 0.0, 0.1], [0.3, 0.2, 2.0]])], "complex"),
    (lambda a: np.sum(np.pad(a, 1, mode="mean")), [rng.standard_normal(3)], "mode='mean'"),
    (lambda a: np.sum(np.pad(a, 1, mode="reflect", reflect_type="odd")),
     [rng.standard_normal(3)], "reflect_type"),
    (lambda a: np.sum(np.cross(a, a[::-1] * 2.0)), [rng.standard_normal((3, 2))], "3-vectors"),
    (lambda a: np.sum(np.gradient(np.arange(4.0), a) ** 2), [np.array([0.0, 1.0, 3.0, 4.0])],
     "coordinates"),
    (lambda a: np.sum(np.sign(np.fft.fft(a)).real), [rng.standard_normal(4)], "np.sign"),
    (lambda a: np.sum(np.average(a, axis=0, returned=True)[0]), [rng.standard_normal((2, 3))],
     "returned=False"),
])
# the 2-vector cross product is refused after NumPy warns that it deprecates it
@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors are deprecated")
def test_derivatives_sourcegrad_does_not_compute_are_refused(f, args, message):
    """Through the runtime, which calls the rules as the transformer inlines them."""
    tensors = [sg.tensor(a, requires_grad=True) for a in args]
    with pytest.raises(NotImplementedError, match=message):
        f(*tensors).backward()
