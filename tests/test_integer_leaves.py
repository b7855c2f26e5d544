"""Integer leaves of structured arguments: their gradient is ``None`` (CONTRACT 1a), so no
work goes into it where the structure is known: the variant specialised at the first call
(``specialisation.describe`` guards dicts, lists, tuples, namedtuples and dataclasses
leaf by leaf) drops the cotangent of an int, bool or integer array leaf. Computing it was
not only waste: ``x ** p.n``'s exponent cotangent is ``log(x)``, which at a negative base
raised under ``-W error`` or ``np.errstate(all='raise')`` on a valid gradient."""

import collections
import dataclasses
import warnings

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad import specialisation
from sourcegrad.specialisation import describe
from tests.fd import assert_tree_close, tree_numerical_grad


@dataclasses.dataclass
class Params:
    w: np.ndarray
    n: int


Pair = collections.namedtuple("Pair", "w n")

X = np.array([-1.5, 2.0, -0.5])  # negative bases: log(x) is nan there
W = np.array([0.5, -1.0, 2.0])


def dataclass_power(x, p):
    return np.sum(p.w * x ** p.n)


def namedtuple_power(x, p):
    return np.sum(p.w * x ** p.n)


def dict_power(x, p):
    return np.sum(p["w"] * np.power(x, p["n"]))


def list_power(x, p):
    return np.sum(p[0] * x ** p[1])


def tuple_times(x, p):
    return np.sum(p[0] * x * p[1])


def nested_power(x, p):
    return np.sum(p["layer"].w * x ** p["layer"].n + p["scale"][0] * x ** p["scale"][1])


def dataclass_loop(x, p):
    y = x
    for _ in range(p.n):
        y = y * p.w
    return np.sum(y)


def bool_and_int_array(x, p):
    return np.sum(p["w"] * x ** p["k"]) * (2.0 if p["flag"] else 1.0)


CASES = {
    "dataclass": (dataclass_power, Params(W, 3)),
    "namedtuple": (namedtuple_power, Pair(W, 3)),
    "dict": (dict_power, {"w": W, "n": 3}),
    "list": (list_power, [W, 3]),
    "tuple": (tuple_times, (W, 3)),
    "nested": (nested_power, {"layer": Params(W, 3), "scale": [0.5, np.int64(2)]}),
    "loop": (dataclass_loop, Params(W, 3)),
    "bool and int array": (bool_and_int_array,
                           {"w": W, "k": np.array([1, 2, 3]), "flag": True}),
}


def _strictly(call):
    """``call()`` where any floating-point warning is an error, as under ``-W error`` and
    ``np.seterr(all='raise')``."""
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        return call()


@pytest.mark.parametrize("name", CASES)
def test_an_integer_leaf_gets_none_and_the_floats_match_differences(name):
    fn, p = CASES[name]
    g = sg.grad(fn, wrt=(0, 1))
    for _ in range(2):  # the variant made at the first call, then run again
        grad_x, grad_p = _strictly(lambda: g(X.copy(), p))
        assert_tree_close(grad_x, tree_numerical_grad(fn, (X.copy(), p), 0))
        assert_tree_close(grad_p, tree_numerical_grad(fn, (X.copy(), p), 1))
    assert specialisation.variants_of(g).made == 1


@pytest.mark.parametrize("name", ["dataclass", "namedtuple", "dict", "list", "tuple", "nested"])
def test_the_variant_computes_no_cotangent_for_an_integer_leaf(name):
    fn, p = CASES[name]
    text = sg.grad(fn, wrt=(0, 1)).specialised_source(X, p)
    assert "np.log" not in text, text  # the exponent's cotangent: x ** n * log(x)
    assert "grad_p_n" not in text and "grad_p_1 " not in text, text


def test_a_float_leaf_in_the_same_place_keeps_its_cotangent():
    """The same code with a float exponent: its cotangent is wanted, and matches
    differences (a positive base: the derivative exists)."""
    p = Params(W, 3.0)
    x = np.abs(X)
    grad_x, grad_p = sg.grad(dataclass_power, wrt=(0, 1))(x, p)
    assert_tree_close(grad_p, tree_numerical_grad(dataclass_power, (x, p), 1))
    assert isinstance(grad_p.n, float)
    assert "np.log" in sg.grad(dataclass_power, wrt=(0, 1)).specialised_source(x, p)


def test_times_an_integer_leaf():
    def scaled(x, p):
        return np.sum(x * p.n + p.w)

    p = Params(W, 4)
    g = sg.grad(scaled, wrt=(0, 1))
    grad_x, grad_p = _strictly(lambda: g(X.copy(), p))
    assert_tree_close(grad_x, tree_numerical_grad(scaled, (X, p), 0))
    assert_tree_close(grad_p, tree_numerical_grad(scaled, (X, p), 1))
    assert "grad_p_n" not in g.specialised_source(X, p)


def test_an_integer_leaf_becoming_a_float_makes_a_new_variant():
    """The guard describes each leaf: the variant that dropped an int's cotangent never
    serves a float there."""
    g = sg.grad(dataclass_power, wrt=1)
    x = np.abs(X)
    assert g(x, Params(W, 3)).n is None
    as_float = g(x, Params(W, 3.0))
    assert_tree_close(as_float, tree_numerical_grad(dataclass_power, (x, Params(W, 3.0)), 1))
    assert specialisation.variants_of(g).made == 2


def test_the_guard_describes_dataclasses_and_dicts_leaf_by_leaf():
    assert describe(Params(W, 3)) == (Params, describe(W), int)
    assert describe(Params(W, 3)) != describe(Params(W, 3.0))
    assert describe({"w": W, "n": 3}) == (dict, ("w", *describe(W)), ("n", int))
    assert describe({"w": W, "n": 3}) != describe({"w": W, "n": 3.0})
    assert describe({"n": 3, "w": W}) != describe({"w": W, "n": 3})  # the order too
    vocabulary = {str(i): i for i in range(100)}  # large: read as unknown, not walked
    assert describe(vocabulary) is dict


def test_the_runtime_layer_with_a_structure_beside_a_tensor():
    """``@sg.differentiable`` differentiates its tensors only: a dataclass of an array and
    an int beside them is a constant, and nothing is computed for it."""
    fn = sg.differentiable(dataclass_power)
    p = Params(W, 3)
    x = sg.tensor(X.copy(), requires_grad=True)

    def backward():
        fn(x, p).backward()

    _strictly(backward)
    assert_tree_close(x.grad.numpy(), tree_numerical_grad(dataclass_power, (X, p), 0))


def writes_a_float_into_a_dicts_integer(x, d):
    d["s"] = x[0] * 2.0
    return d["s"] ** 2 + np.sum(x * d["w"])


def writes_a_float_into_a_lists_integer(x, p):
    p[1] = x[0] * 2.0
    return p[1] ** 2 + np.sum(x * p[0])


def appends_to_a_list(x, p):
    p.append(x[0] * 2.0)
    return p[2] ** 2 + np.sum(x * p[0]) + p[1]


@pytest.mark.parametrize(("fn", "make"), [
    (writes_a_float_into_a_dicts_integer, lambda: {"s": 3, "w": W.copy()}),
    (writes_a_float_into_a_lists_integer, lambda: [W.copy(), 3]),
    (appends_to_a_list, lambda: [W.copy(), 3]),
])
def test_code_writing_into_a_structure_argument_is_not_specialised_on_its_entries(fn, make):
    """The call's integer at ``d['s']`` is a float carrying the derivative once the code
    has written there: a variant that dropped its cotangent (what the call told of the
    entry) lost ``x[0]``'s gradient, 2 * 2 * (2 x0) = 4 more. The variant is made without
    what the call told of the structure's entries."""
    x = np.array([0.5, -1.0, 2.0])
    expected = W.copy()
    expected[0] += 8 * x[0]
    g = sg.grad(fn, wrt=0)
    for _ in range(2):
        np.testing.assert_allclose(g(x, make()), expected)
    assert specialisation.variants_of(g).made == 1
    np.testing.assert_allclose(specialisation.general_of(g)(x, make()), expected)


def power_through_a_tuple(x, n):
    q = (x, n)
    return np.sum(q[0] ** q[1])


def test_an_integer_argument_in_a_structure_the_code_builds_keeps_its_gradient():
    """Only the call's structures have integer leaves whose gradient is ``None``: ``n`` is
    an integer argument (a float gradient, CONTRACT 1), held in a tuple the code builds."""
    x = np.array([0.5, 1.5, 2.0])
    g = sg.grad(power_through_a_tuple, wrt=1)
    for _ in range(2):
        assert g(x, 3) == pytest.approx(np.sum(x ** 3 * np.log(x)), rel=1e-12)
    assert specialisation.variants_of(g).made == 1
