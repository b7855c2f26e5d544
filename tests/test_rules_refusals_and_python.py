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
])
# the 2-vector cross product is refused after NumPy warns that it deprecates it
@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors are deprecated")
def test_derivatives_sourcegrad_does_not_compute_are_refused(f, args, message):
    """Through the runtime, which calls the rules as the transformer inlines them."""
    tensors = [sg.tensor(a, requires_grad=True) for a in args]
    with pytest.raises(NotImplementedError, match=message):
        f(*tensors).backward()
