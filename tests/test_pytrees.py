"""Nested structures (CONTRACT 1a): lists, tuples, dicts, namedtuples and dataclasses as
arguments and outputs at any depth, read, iterated and built inside the function, in reverse
and forward mode, jacobian, hessian, hvp and vjp. Gradients are checked against central
finite differences computed leaf by leaf (tests/fd.py, independent of sourcegrad), their
structure against the argument's: the same container types and keys, None at leaves that are
not floats. Hypothesis draws random structures."""

import collections
import dataclasses
import itertools
import linecache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from sourcegrad.testing import check_grads

from .fd import assert_close, assert_tree_close, tree_numerical_grad

rng = np.random.default_rng(7)


def r(*shape):
    return rng.standard_normal(shape)


def check_reverse(fun, args, argnum=0):
    """sg.grad against finite differences, structure and values."""
    got = sg.grad(fun, wrt=argnum)(*args)
    assert_tree_close(got, tree_numerical_grad(fun, args, argnum))
    return got


Params = collections.namedtuple("Params", "w b")


@dataclasses.dataclass
class Layer:
    w: np.ndarray
    b: np.ndarray
    activation: str = "tanh"
    width: int = 3


# -- the models of the issue ----------------------------------------------------------------
def mlp(params, x):
    h = x
    for layer in params:
        h = np.tanh(h @ layer["w"] + layer["b"])
    return np.sum(h ** 2)


def namedtuple_model(p, x):
    return np.sum(np.tanh(x @ p.w + p.b) ** 2)


def dataclass_model(layers, x):
    h = x
    for layer in layers:
        pre = h @ layer.w + layer.b
        h = np.tanh(pre) if layer.activation == "tanh" else np.maximum(pre, 0.0)
    return np.sum(h) * layers[0].width


MLP_PARAMS = [{"w": r(3, 4), "b": r(4)}, {"w": r(4, 2), "b": r(2)}]
X = r(5, 3)


def test_mlp_over_a_list_of_dicts():
    grads = check_reverse(mlp, (MLP_PARAMS, X))
    assert type(grads) is list and all(type(g) is dict for g in grads)
    assert check_grads(mlp, (MLP_PARAMS, X), order=2)
    source = sg.grad(mlp).source
    assert "for i in reversed(range(len(params))):" in source
    assert "grad_params[i] = add_grads(grad_params[i], grad_layer)" in source


def test_namedtuple_and_dataclass_parameters():
    p = Params(r(3, 2), r(2))
    grads = check_reverse(namedtuple_model, (p, X))
    assert type(grads) is Params
    assert check_grads(namedtuple_model, (p, X), order=2)
    layers = [Layer(r(3, 4), r(4)), Layer(r(4, 2), r(2), activation="relu", width=2)]
    grads = check_reverse(dataclass_model, (layers, X))
    assert type(grads[1]) is Layer and grads[1].activation is None and grads[1].width is None
    tangent = [Layer(r(3, 4), r(4), None, None), Layer(r(4, 2), r(2), None, None)]
    _, t = sg.jvp(dataclass_model, (layers, X), (tangent, None))
    expected = sum(float(np.sum(g.w * u.w) + np.sum(g.b * u.b)) for g, u in zip(
        tree_numerical_grad(dataclass_model, (layers, X), 0), tangent, strict=True))
    assert_close(t, expected)


# -- reading: indexing, slicing, fields, get ------------------------------------------------
def reads_at_depth(tree):
    return (np.sum(tree["a"][0] * tree["a"][1]["c"]) + np.sum(np.sin(tree["b"][1][0]))
            + tree["b"][0] ** 2)


def indexes_at_runtime(a, b, c, i, key, d):
    packed = a, b, c
    return np.sum(packed[i] ** 2) + np.sum(d[key] * a)


def slices_a_list(xs):
    head = xs[:2]
    total = 0.0
    for v in xs[1:]:
        total = total + np.sum(v ** 3)
    return total + np.sum(head[0] * head[1])


def gets(d, default):
    missing = d.get("nope", default)
    present = d.get("w")
    return np.sum(missing * present) + np.sum(d.get("b", default))


def config_get(x, cfg):
    rv = cfg.get("rv", 1.0)
    if cfg.get("double", False):
        rv = x * 2.0
    return np.sum(rv * x)


TREE = {"a": [r(3), {"c": r(3)}], "b": (1.5, [r(2)])}


def test_reading_nested_structures():
    grads = check_reverse(reads_at_depth, (TREE,))
    assert type(grads["a"]) is list and type(grads["b"]) is tuple
    assert check_grads(reads_at_depth, (TREE,), order=2)
    d = {"u": r(3), "v": r(3)}
    for i, key in itertools.product(range(3), ("u", "v")):
        args = (r(3), r(3), r(3), i, key, d)
        for argnum in (0, 1, 2, 5):
            check_reverse(indexes_at_runtime, args, argnum)
    xs = [r(2), r(2), r(2)]
    check_reverse(slices_a_list, (xs,))
    assert check_grads(slices_a_list, (xs,), order=2)
    d = {"w": r(3), "b": r(3)}
    check_reverse(gets, (d, r(3)), 0)
    check_reverse(gets, (d, r(3)), 1)
    assert check_grads(gets, (d, r(3)), order=2)
    x = r(3)
    assert_close(sg.grad(config_get)(x, {"rv": 3.0}), np.full(3, 3.0))
    assert_close(sg.grad(config_get)(x, {"double": True}), 4.0 * x)


# -- iterating ---------------------------------------------------------------------------------
def iterates_every_way(d, xs, ys):
    total = 0.0
    for key, value in d.items():
        total = total + np.sum(np.sin(value)) * len(key)
    for value in d.values():
        total = total + np.sum(value ** 2)
    for key in d.keys():
        total = total + np.sum(np.cos(d[key]))
    for key in d:
        total = total + np.sum(d[key]) * 0.5
    for i, (_, value) in enumerate(sorted(d.items())):
        total = total + (i + 1.0) * np.sum(value)
    for i, x in enumerate(xs):
        total = total + (i + 1.0) * np.sum(x ** 3)
    for x, y in zip(xs, ys):  # noqa: B905 (as users write it)
        total = total + np.sum(x * y)
    return total


def test_iterating_over_structures():
    args = ({"left": r(2), "right": r(3)}, [r(2), r(2)], (r(2), r(2)))
    for argnum in range(3):
        check_reverse(iterates_every_way, args, argnum)
    assert check_grads(iterates_every_way, args, order=2)


# -- building ------------------------------------------------------------------------------------
def builds_every_way(a, b):
    d1 = dict(a=a, b=b)
    d2 = dict([("a", a * 2.0)], b=b)
    d3 = dict(zip(["x", "y"], [a, b]))  # noqa: B905
    squares = {key: value ** 2 for key, value in d1.items()}
    items = list((a, b))
    pair = tuple([a, b])
    literal = {"p": [a, (b, a)]}
    comp = [v * 3.0 for v in items]
    p = Params(w=a, b=b)
    return (np.sum(d1["a"] * d2["a"]) + np.sum(d3["y"] * squares["b"]) + np.sum(items[1])
            + np.sum(pair[0] * literal["p"][1][0]) + np.sum(comp[0]) + np.sum(p.w * p.b))


def hands_lists_to_numpy(x):
    cubes = [v ** 3 for v in x]
    stacked = np.stack([x, x * 2.0])
    rows = np.array([x[0] * x[1], x[2]])
    return np.sum(cubes) + np.sum(stacked ** 2) + np.sum(rows)


def test_building_structures_and_handing_lists_to_numpy():
    args = (r(3), r(3))
    for argnum in range(2):
        check_reverse(builds_every_way, args, argnum)
    assert check_grads(builds_every_way, args, order=2)
    check_reverse(hands_lists_to_numpy, (r(3),))
    assert check_grads(hands_lists_to_numpy, (r(3),), order=2)


# -- the character-level RNN's dicts filled by key ---------------------------------------------
def char_rnn(hprev, Wxh, Whh, Why, inputs, targets):
    xs, hs, ps = {}, {}, {}
    hs[-1] = np.copy(hprev)
    loss = 0.0
    for t in range(len(inputs)):
        xs[t] = np.zeros(Wxh.shape[1])
        xs[t][inputs[t]] = 1
        hs[t] = np.tanh(Wxh @ xs[t] + Whh @ hs[t - 1])
        ys = Why @ hs[t]
        ps[t] = np.exp(ys) / np.sum(np.exp(ys))
        loss = loss - np.log(ps[t][targets[t]])
    return loss


def test_dicts_filled_by_key_in_a_loop():
    args = (r(4), r(4, 3) * 0.5, r(4, 4) * 0.5, r(3, 4) * 0.5, [0, 2, 1, 1], [2, 1, 0, 2])
    for argnum in range(4):
        check_reverse(char_rnn, args, argnum)
    _, tangent = sg.jvp(char_rnn, args, (r(4), None, None, None, None, None))
    assert np.isfinite(tangent)


# -- outputs, jacobians, hessians ------------------------------------------------------------------
def structured_output(x):
    return {"double": x * 2.0, "pair": [np.sin(x), np.sum(x ** 2)]}


def test_structured_outputs_in_vjp_jvp_and_jacobian():
    x = r(3)
    cotangent = {"double": r(3), "pair": [r(3), 0.7]}
    (g,) = sg.vjp(structured_output, x)[1](cotangent)
    assert_close(g, 2.0 * cotangent["double"] + np.cos(x) * cotangent["pair"][0]
                 + 0.7 * 2.0 * x)
    value, tangent = sg.jvp(structured_output, (x,), (np.ones(3),))
    assert type(tangent) is dict and type(tangent["pair"]) is list
    assert_close(tangent["pair"][1], float(np.sum(2.0 * x)))
    jac = sg.jacobian(structured_output)(x)
    assert_close(jac["double"], 2.0 * np.eye(3))
    assert_close(jac["pair"][0], np.diag(np.cos(x)))
    assert_close(jac["pair"][1], 2.0 * x)


def quartic(p):
    return np.sum(p["w"] ** 4) + p["k"] * np.sum(p["w"]) * p["s"] ** 2


def test_jacobian_hessian_and_hvp_of_structured_arguments():
    p = {"w": r(2), "s": 1.5, "k": 3}
    jac = sg.jacobian(lambda q: q["w"] ** 2 * q["s"])(p)
    assert set(jac) == {"w", "s", "k"} and jac["k"] is None
    assert_close(jac["w"], np.diag(2.0 * p["w"] * p["s"]))
    assert_close(jac["s"], p["w"] ** 2)  # each block an array: out.shape + arg.shape
    hess = sg.hessian(quartic)(p)
    assert_close(hess["w"]["w"], np.diag(12.0 * p["w"] ** 2))
    assert_close(hess["w"]["s"], np.full(2, 2.0 * 3 * 1.5))
    assert_close(hess["s"]["s"], np.array(2.0 * 3 * float(np.sum(p["w"]))))
    assert hess["k"] is None and hess["w"]["k"] is None
    v = {"w": r(2), "s": 0.5, "k": 0}
    hv = sg.hvp(quartic)(p, v)
    assert_close(hv["w"], 12.0 * p["w"] ** 2 * v["w"] + 2.0 * 3 * 1.5 * v["s"])


# -- random structures -----------------------------------------------------------------------------
Pair = collections.namedtuple("Pair", "first second")

leaves = st.one_of(
    st.floats(-2, 2, allow_nan=False).map(float),
    st.integers(0, 3),
    st.tuples(st.integers(1, 3)).map(lambda shape: np.round(rng.standard_normal(shape), 3)),
)


def _containers(children):
    return st.one_of(
        st.lists(children, min_size=1, max_size=3),
        st.lists(children, min_size=1, max_size=3).map(tuple),
        st.dictionaries(st.sampled_from(["a", "b", "c"]), children, min_size=1, max_size=3),
        st.tuples(children, children).map(lambda t: Pair(*t)),
    )


trees = st.recursive(leaves, _containers, max_leaves=8).filter(
    lambda t: not isinstance(t, (int, float, np.ndarray)))


def _paths(tree, path=""):
    """The source text reading each float leaf of ``tree`` from ``p``."""
    if isinstance(tree, Pair):
        return [q for i, f in enumerate(Pair._fields) for q in _paths(tree[i], f"{path}.{f}")]
    if isinstance(tree, dict):
        return [q for k, v in tree.items() for q in _paths(v, f"{path}[{k!r}]")]
    if isinstance(tree, (list, tuple)):
        return [q for i, v in enumerate(tree) for q in _paths(v, f"{path}[{i}]")]
    if isinstance(tree, float) or isinstance(tree, np.ndarray):
        return [path]
    return []


_made = itertools.count()


def _function_reading(paths):
    """A function, with a source of its own, reading every leaf at ``paths`` of ``p``."""
    terms = [f"np.sum(np.sin(p{path}) * {k + 1}.0)" for k, path in enumerate(paths)]
    text = f"def reads(p):\n    return {' + '.join(terms) or '0.0'}\n"
    filename = f"<hypothesis tree function {next(_made)}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {"np": np}
    exec(compile(text, filename, "exec"), namespace)
    return namespace["reads"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees)
def test_random_structures_get_gradients_of_their_own_structure(tree):
    paths = _paths(tree)
    if not paths:
        return
    fun = _function_reading(paths)
    assert_tree_close(sg.grad(fun)(tree), tree_numerical_grad(fun, (tree,), 0))


@pytest.mark.parametrize("tree", [
    [1.0, (2, {"a": np.ones(2)})],
    {"a": Pair(0.5, [1, 2.0]), "b": (np.arange(3.0), 4)},
])
def test_integer_leaves_get_none_in_forward_mode_too(tree):
    fun = _function_reading(_paths(tree))
    tangent = sg.vjp(fun, tree)[1](1.0)[0]
    assert_tree_close(tangent, tree_numerical_grad(fun, (tree,), 0))


# -- lists and tuples joined with `+` and repeated with `*` (Python's, not arithmetic) -----
def repeated_list(x):
    xs = [x] * 3
    return np.sum(np.stack(xs) * np.arange(3.0)[:, None] ** 2)


def repeated_by_a_count(x):
    pair = [x[0], x[1] * x[2]]
    return np.sum(np.array(2 * pair * len(x)) ** 3)


def joined_lists(x):
    xs = [x[0], x[1]]
    ys = [x[2] ** 2]
    zs = xs + ys + xs
    return np.sum(np.array(zs) ** 3 * np.arange(1.0, 6.0))


def joined_tuples(x):
    t = (x[0],) + (x[1], np.sin(x[2]))
    return t[0] * t[2] + t[1] ** 2


def grown_in_a_loop(x):
    acc = []
    for i in range(len(x)):
        acc = acc + [x[i] * (i + 1)]
    return np.sum(np.array(acc[:len(acc) - 1]) ** 2)


def arrays_and_lists_stay_arithmetic(x):
    return np.sum((x + [1.0, 2.0, 3.0]) ** 2) + np.sum([0.5, 1.5, 2.5] * x)


@pytest.mark.parametrize("fun", [repeated_list, repeated_by_a_count, joined_lists,
                                 joined_tuples, grown_in_a_loop,
                                 arrays_and_lists_stay_arithmetic])
def test_lists_joined_with_plus_and_repeated_with_times(fun):
    # the old code took `+` and `*` of lists for np.add / np.multiply: zip() errors from
    # generated code, or elements' derivatives added to the wrong elements
    x = np.array([0.3, -0.5, 1.2])
    check_reverse(fun, (x,))
    assert check_grads(fun, [x], order=2)


def test_lists_the_code_does_not_say_are_lists_are_refused_not_joined_as_numbers():
    def joined_arguments(xs, ys):
        return np.sum(np.array(xs + ys) ** 2)

    with pytest.raises(TypeError, match=r"Write list\(xs\) \+ list\(ys\)"):
        sg.grad(joined_arguments)([0.1, 0.2], [0.3])

    def joined_copies(xs, ys):
        return np.sum(np.array(list(xs) + list(ys)) ** 2)

    assert_tree_close(sg.grad(joined_copies, wrt=(0, 1))([0.1, 0.2], [0.3]), ([0.2, 0.4], [0.6]))


# -- sorted(): a permutation, each derivative routed with its element -----------------------
def sorted_numbers(x):
    ys = sorted([x[0], x[1] * 2, x[2]])
    return ys[0] * 2 + ys[2] ** 2 - ys[1]


def sorted_array_descending(x):
    t = 0.0
    for i, v in enumerate(sorted(x, reverse=True)):
        t = t + v ** 2 * (i + 1)
    return t


def sorted_by_a_key(x):
    rows = sorted([x[:2], x[1:]], key=np.sum)
    return np.sum(rows[0] * np.array([1.0, -2.0])) + np.sum(np.sin(rows[1]))


def sorted_into_numpy(x):
    return np.sum(np.array(sorted(x * 3)) * np.arange(1.0, 4.0))


@pytest.mark.parametrize("fun", [sorted_numbers, sorted_array_descending, sorted_by_a_key,
                                 sorted_into_numpy])
def test_sorted_routes_each_derivative_with_its_element(fun):
    # the old code took sorted for a function without derivative: gradients of zero
    x = np.array([0.3, -0.5, 1.2])
    check_reverse(fun, (x,))
    assert check_grads(fun, [x], order=2)


def test_sorted_keys_of_a_dict_index_it():
    def first_by_key(d):
        keys = sorted(d.keys())
        return np.sum(d[keys[0]] ** 2) + np.sum(np.cos(d[keys[-1]]))

    def by_sorted_values(d):
        values = sorted([np.sum(d["a"]), np.sum(d["b"])])
        return values[0] ** 2 - 3 * values[1]

    d = {"b": r(2), "a": r(2)}
    for fun in (first_by_key, by_sorted_values):  # (np.add.at into the dict's gradient)
        check_reverse(fun, (d,))
        assert check_grads(fun, [d], order=2)


def test_gradient_of_a_list_of_dicts_keeps_the_arguments_containers_and_order():
    """``as_gradient``'s walk of plain lists, tuples and dicts (a network's layers): each
    array leaf's gradient as it is, ``None`` for integer leaves, zeros for leaves the
    gradient has no part for, the argument's key order."""
    from sourcegrad.rules.support import as_gradient

    w, b = np.ones((2, 3)), np.full((2,), 2.0)
    layers = [{"W": np.zeros((2, 3)), "b": np.zeros(2), "n": np.arange(3)},
              ({"W": np.zeros((2, 3)), "scale": 1.0},)]
    g = [{"b": b, "W": w, "n": None}, [{"W": w}]]
    got = as_gradient(g, layers)
    assert type(got) is list and type(got[1]) is tuple
    assert list(got[0]) == ["W", "b", "n"] and got[0]["n"] is None
    assert got[0]["W"] is w and got[0]["b"] is b
    np.testing.assert_array_equal(got[1][0]["W"], w)
    assert got[1][0]["scale"] == 0.0 and type(got[1][0]["scale"]) is float


def test_gradients_of_dicts_with_the_same_keys_add_in_the_second_ones_order():
    from sourcegrad.rules.support import add_grads

    a = {"W": np.ones(2), "b": 1.0}
    b = {"b": 2.0, "W": np.full(2, 3.0)}
    total = add_grads(a, b)
    assert list(total) == ["b", "W"] and total["b"] == 3.0
    np.testing.assert_array_equal(total["W"], [4.0, 4.0])
    partial = add_grads({"W": np.ones(2)}, b)  # a key missing: a zero there
    assert list(partial) == ["b", "W"] and partial["b"] == 2.0
