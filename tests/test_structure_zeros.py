"""The cotangents of dicts and lists built without zeros made only to be added to
(``passes/structure_zeros.py``): a dict's cotangent at once (``zeros_like_grad_with``), a
list's slots empty until the backward loop writes each (``zero_slots``). Gradients checked
against central finite differences in float64 (tests/fd.py, independent of sourcegrad) and
against the general derivative; the rewrite's conditions checked on adjoint code where it
must not apply."""

import ast
import collections
import dataclasses
import textwrap
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from sourcegrad import specialisation
from sourcegrad.codegen import printer
from sourcegrad.passes.structure_zeros import build_structure_cotangents
from sourcegrad.pipeline import module_source
from sourcegrad.rules.support import (
    Fields,
    add_grads,
    zero_slots,
    zeros_like_grad,
    zeros_like_grad_with,
)

from .fd import assert_tree_close, tree_numerical_grad

rng = np.random.default_rng(14)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def feedforward(layers, a):
    for layer in layers:
        a = sigmoid(layer["W"] @ a + layer["b"])
    return a


def mlp_loss(layers, x, y):
    """The real program's loss (benchmarks/programs/mlp_layers.py): a callee loops over
    the layers."""
    return 0.5 * np.sum((feedforward(layers, x) - y) ** 2)


def scaled_loss(layers, x):
    """Layers with keys that are not differentiated (a name, an integer) and read in
    another order than the dict's, one key read twice."""
    for layer in layers:
        x = np.tanh(layer["scale"] * (layer["b"] + layer["W"] @ x)) + 0.1 * np.sum(layer["W"])
    return np.sum(x ** 2)


def indexed_loss(layers, x):
    """``layers[i]`` read twice in the body: two additions into each slot."""
    for i in range(len(layers)):
        x = np.tanh(layers[i]["W"] @ x + layers[i]["b"])
    return np.sum(x ** 2)


def make_layers(sizes, extra=False):
    layers = []
    for n, m in zip(sizes[:-1], sizes[1:], strict=True):
        layer = {"W": rng.standard_normal((m, n)), "b": rng.standard_normal((m, 1))}
        if extra:
            layer = {"name": f"fc{m}", "b": layer["b"], "width": m, "W": layer["W"],
                     "scale": 0.7}
        layers.append(layer)
    return layers


def check_against_fd_and_general(loss, args, wrt=0):
    g = sg.grad(loss, wrt=wrt)
    got = g(*args)
    positions = wrt if isinstance(wrt, tuple) else (wrt,)
    expected = tuple(tree_numerical_grad(loss, args, p) for p in positions)
    assert_tree_close(got if isinstance(wrt, tuple) else (got,), expected)
    general = specialisation.general_of(g)(*args)
    assert_tree_close(got, general, rtol=1e-12, atol=1e-14)
    return got


# -- the generated code ------------------------------------------------------------------------
def test_a_loop_over_layer_dicts_builds_each_layer_cotangent_at_once_into_empty_slots():
    g = sg.grad(mlp_loss)
    g(make_layers([4, 3, 2]), rng.standard_normal((4, 5)), rng.uniform(size=(2, 5)))
    text = module_source(g)
    assert "grad_layers = zero_slots(layers)" in text
    assert "grad_layer = zeros_like_grad_with(layer, {'W': grad_layer_W, 'b': grad_layer_b})" \
        in text
    assert "zeros_like_grad(layer)" not in text and "grad_layer['b']" not in text
    specialised = g.specialised_source(make_layers([4, 3, 2]), rng.standard_normal((4, 5)),
                                       rng.uniform(size=(2, 5)))
    assert "zero_slots(layers)" in specialised and "zeros_like_grad(layer)" not in specialised


# -- gradients ---------------------------------------------------------------------------------
@pytest.mark.parametrize("sizes", [[4], [4, 3], [4, 8, 8, 3]], ids=["0 layers", "1", "3"])
def test_mlp_over_layers_of_different_shapes_matches_finite_differences(sizes):
    layers = make_layers(sizes)
    x, y = rng.standard_normal((sizes[0], 5)), rng.uniform(size=(sizes[-1], 5))
    got = check_against_fd_and_general(mlp_loss, (layers, x, y))
    assert isinstance(got, list) and len(got) == len(layers)


@pytest.mark.parametrize("wrt", [0, (0, 1), 1], ids=["layers", "layers and x", "x"])
def test_layers_with_keys_not_differentiated_and_wrt_subsets(wrt):
    layers = make_layers([3, 4, 2], extra=True)
    got = check_against_fd_and_general(scaled_loss, (layers, rng.standard_normal((3, 2))), wrt)
    if wrt == 0:
        assert list(got[0]) == ["name", "b", "width", "W", "scale"]  # the dict's own order
        assert got[0]["name"] is None and got[0]["width"] is None


def test_two_reads_of_each_layer_add_into_each_slot():
    layers = make_layers([3, 4, 2])
    check_against_fd_and_general(indexed_loss, (layers, rng.standard_normal((3, 2))))


def test_records_and_tuples_of_layers_keep_their_types():
    Layer = collections.namedtuple("Layer", "W b")

    @dataclasses.dataclass
    class Dense:
        W: np.ndarray
        b: np.ndarray
        name: str = "dense"

    def loss(layers, x):
        for layer in layers:
            x = np.tanh(layer.W @ x + layer.b)
        return np.sum(x ** 2)

    for kind in (Layer, Dense):
        layers = tuple(kind(layer["W"], layer["b"]) for layer in make_layers([3, 4, 2]))
        got = check_against_fd_and_general(loss, (layers, rng.standard_normal((3, 2))))
        assert type(got) is tuple and all(type(layer) is kind for layer in got)


def test_a_list_the_caller_builds_from_its_own_dicts():
    """The callee's list cotangent goes back to the caller, whose list display reads each
    slot."""
    def loss(first, second, x):
        return mlp_loss([first, second], x, 0.5)

    first, second = make_layers([3, 4, 2])
    args = (first, second, rng.standard_normal((3, 2)))
    check_against_fd_and_general(loss, args, (0, 1))


def test_a_second_call_with_other_shapes_keys_or_length_gets_its_own_gradient():
    g = sg.grad(scaled_loss)
    for sizes, extra in [([3, 4, 2], True), ([3, 5, 5, 2], True), ([3, 2], True),
                         ([3, 4, 2], False), ([3, 4, 2], True)]:
        layers = make_layers(sizes, extra)
        if not extra:
            for layer in layers:
                layer["scale"] = 1.3
        args = (layers, rng.standard_normal((3, 2)))
        assert_tree_close(g(*args), tree_numerical_grad(scaled_loss, args, 0))
        assert_tree_close(g(*args), specialisation.general_of(g)(*args), 1e-12, 1e-14)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sizes=st.lists(st.integers(1, 4), min_size=1, max_size=4),
       batch=st.integers(1, 3), extra=st.booleans(), seed=st.integers(0, 2 ** 16))
def test_random_networks_match_finite_differences(sizes, batch, extra, seed):
    local = np.random.default_rng(seed)
    layers = []
    for n, m in zip(sizes[:-1], sizes[1:], strict=True):
        layer = {"W": local.standard_normal((m, n)), "b": local.standard_normal((m, 1)),
                 "scale": 0.5}
        if extra:
            layer = {"tag": "x", **layer, "n": n}
        layers.append(layer)
    args = (layers, local.standard_normal((sizes[0], batch)))
    check_against_fd_and_general(scaled_loss, args)


def test_second_order_through_the_built_cotangents():
    """The gradient differentiated again, in reverse mode: through zeros_like_grad_with's
    rule (its adjoint parts_of_grad) and zero_slots (a constant)."""
    layers = make_layers([3, 4, 2])
    x = rng.standard_normal((3, 2))
    g = sg.grad(indexed_loss)

    def curvature(layers, x):
        grads = g(layers, x)
        return np.sum(grads[0]["W"] ** 2) + np.sum(np.sin(grads[1]["b"]))

    check_against_fd_and_general(curvature, (layers, x), (0, 1))
    # forward over reverse (as sg.hessian runs): through zeros_like_grad_with's tangent
    tangent = [{k: rng.standard_normal(v.shape) for k, v in layer.items()} for layer in layers]
    _, along = sg.jvp(curvature, (layers, x), (tangent, np.zeros_like(x)))
    fd = tree_numerical_grad(curvature, (layers, x), 0)
    expected = sum(np.sum(fd[i][k] * tangent[i][k]) for i in range(2) for k in ("W", "b"))
    np.testing.assert_allclose(along, expected, rtol=1e-6)


# -- the helpers -------------------------------------------------------------------------------
def test_zeros_like_grad_with_gives_every_key_in_the_dicts_order():
    w, b = np.ones((2, 2)), np.ones(2)
    x = {"W": w, "name": "fc", "b": b, "n": 3}
    built = zeros_like_grad_with(x, {"b": 2 * b, "W": 3 * w})
    assert list(built) == list(x)
    zeros = zeros_like_grad(x)
    assert built["name"] == zeros["name"] and built["n"] == zeros["n"] == 0.0
    np.testing.assert_array_equal(built["W"], 3 * w)
    parts = {"W": w, "b": b}
    assert zeros_like_grad_with({"W": w, "b": b}, parts) is parts  # nothing to reorder
    reordered = zeros_like_grad_with({"b": b, "W": w}, parts)
    assert list(reordered) == ["b", "W"] and reordered["W"] is w


def test_zeros_like_grad_with_adds_into_zeros_for_what_is_not_a_plain_dict():
    x = collections.OrderedDict(W=np.ones(2), b=np.ones(3))
    built = zeros_like_grad_with(x, {"b": np.full(3, 2.0)})
    assert type(built) is collections.OrderedDict
    np.testing.assert_array_equal(built["b"], np.full(3, 2.0))
    np.testing.assert_array_equal(built["W"], np.zeros(2))
    Pair = collections.namedtuple("Pair", "W b")
    fields = zeros_like_grad_with(Pair(np.ones(2), np.ones(2)), {"W": np.ones(2)})
    assert type(fields) is Fields and fields.b.tolist() == [0.0, 0.0]
    with pytest.raises(KeyError):  # a key the value lacks, as the zeros would have said
        zeros_like_grad_with({"W": np.ones(2)}, {"V": np.ones(2)})


def test_zero_slots_are_zeros_that_add_grads_takes():
    layers = [{"W": np.ones(2)}, {"W": np.ones(3)}]
    slots = zero_slots(layers)
    assert slots == [None, None] and zero_slots(tuple(layers)) == [None, None]
    assert add_grads(slots[0], {"W": np.ones(2)})["W"].tolist() == [1.0, 1.0]
    assert zero_slots(np.ones((2, 3))).tolist() == np.zeros((2, 3)).tolist()


# -- where the rewrite must not apply ------------------------------------------------------------
def rewritten(source):
    """The adjoint ``source`` after the pass, as text."""
    body = ast.parse(textwrap.dedent(source)).body
    return printer.to_source(ast.Module(body=build_structure_cotangents(body),
                                        type_ignores=[])).strip()


DICT = """\
grad_d = zeros_like_grad(d)
grad_d['b'] = grad_d['b'] + grad_d_b
grad_d_W = matmul_vjp_x1(g, d_W, x)
grad_d['W'] = grad_d['W'] + grad_d_W
"""


def test_the_rewrite_applies_to_the_plain_pattern():
    assert rewritten(DICT).splitlines() == [
        "grad_d_W = matmul_vjp_x1(g, d_W, x)",
        "grad_d = zeros_like_grad_with(d, {'W': grad_d_W, 'b': grad_d_b})"]


@pytest.mark.parametrize("change", [
    ("+ grad_d_W\n", "+ grad_d_W\nadd_at(grad_d_b, 0, 1.0)\n"),  # written into in place
    ("grad_d_W = matmul", "grad_d_b = 2.0\ngrad_d_W = matmul"),  # rebound before the end
    ("grad_d_W = matmul", "d = other\ngrad_d_W = matmul"),  # the value changes
    ("grad_d_W = matmul_vjp_x1(g, d_W, x)\n", "if c:\n    break\n"),  # may leave early
], ids=["in place", "rebound", "value rebound", "break"])
def test_the_dict_is_not_built_at_once_where_that_would_change_what_is_read(change):
    old, new = change
    source = DICT.replace(old, new)
    if "break" in new:
        source = "for c in cs:\n" + textwrap.indent(source, "    ")
    assert "grad_d = zeros_like_grad(d)" in rewritten(source)


def test_a_dict_read_midway_is_built_of_the_entries_written_before():
    source = DICT.replace("grad_d_W = matmul", "print(grad_d)\ngrad_d_W = matmul")
    assert rewritten(source).splitlines() == [
        "grad_d = zeros_like_grad_with(d, {'b': grad_d_b})",
        "print(grad_d)",
        "grad_d_W = matmul_vjp_x1(g, d_W, x)",
        "grad_d['W'] = grad_d['W'] + grad_d_W"]


SLOTS = """\
grad_xs = zeros_like_grad(xs)
for i in reversed(range(len(xs))):
    grad_x = zeros_like_grad_with(x, {'W': grad_x_W})
    grad_xs[i] = add_grads(grad_xs[i], grad_x)
"""


def test_the_slots_are_left_empty_for_a_loop_that_writes_each():
    assert "grad_xs = zero_slots(xs)" in rewritten(SLOTS)


@pytest.mark.parametrize("change", [
    ("    grad_xs[i] = add", "    if c:\n        grad_xs[i] = add"),  # not every turn
    ("    grad_xs[i] = add", "    if c:\n        continue\n    grad_xs[i] = add"),
    ("range(len(xs))", "range(len(ys))"),  # another length
    ("range(len(xs))", "range(1, len(xs))"),  # not every element
    ("grad_xs[i] = add_grads(grad_xs[i], grad_x)", "grad_xs[i] = grad_xs[i] + grad_x"),
    ("    grad_xs[i] = add", "    grad_xs[i + 1] = grad_xs[i]\n    grad_xs[i] = add"),
    ("for i in", "xs.pop()\nfor i in"),  # the list changes before the loop
    ("    grad_xs[i] = add", "    grad_x += 1.0\n    grad_xs[i] = add"),  # in place
], ids=["conditional", "continue", "other length", "from 1", "plus", "other slot",
        "list changed", "in place"])
def test_the_slots_are_zeros_unless_the_loop_surely_writes_each(change):
    old, new = change
    assert "grad_xs = zeros_like_grad(xs)" in rewritten(SLOTS.replace(old, new))


def test_sg_jit_compiles_the_slots_of_an_array():
    """``for x in xs`` calling a function: the slots are added to with ``add_grads``; for an
    array ``xs`` they are its zeros, compiled by Numba as before."""
    pytest.importorskip("numba")
    from sourcegrad.jit import compiler

    def f(x):
        return np.sum(np.sin(x) ** 2)

    def loss(xs):
        total = 0.0
        for x in xs:
            total = total + f(x)
        return total

    g = sg.grad(loss)
    assert "grad_xs = zero_slots(xs)" in g.source
    xs = rng.standard_normal((4, 3))
    compiled = sg.jit(g, fallback=False)
    assert_tree_close(compiled(xs), tree_numerical_grad(loss, (xs,), 0))
    assert compiled._compiled[compiler.key((xs,))] is not compiled.fn
    layers = [rng.standard_normal(3), rng.standard_normal(2)]  # a list: zero_slots' Nones
    assert_tree_close(g(layers), tree_numerical_grad(loss, (layers,), 0))


def test_a_layers_gradients_are_writeable_arrays_of_its_dtype():
    """Entries that went into the dict as they were (a read-only broadcast of the seed, a
    float32 product) come back as the arrays ``as_gradient`` makes: writeable, owning their
    memory, of the layer's dtype; integer entries have none."""
    def loss(layers):
        total = 0.0
        for layer in layers:
            total = total + np.sum(layer["W"]) + np.sum(layer["b"] * layer["b"])
        return total

    layers = [{"W": np.ones((2, 3)), "b": np.arange(3.0, dtype=np.float32), "n": np.arange(2)}]
    got = sg.grad(loss)(layers)
    assert got[0]["n"] is None
    for key, expected in [("W", np.ones((2, 3))), ("b", 2 * np.arange(3.0))]:
        leaf = got[0][key]
        assert leaf.flags.writeable and leaf.base is None and leaf.dtype == layers[0][key].dtype
        np.testing.assert_allclose(leaf, expected)


GLOBAL_LAYERS = make_layers([2, 3, 2])  # read by `through_global_layers`, a global of data


def through_global_layers(x):
    for layer in GLOBAL_LAYERS:
        x = np.tanh(layer["W"] @ x + layer["b"])
    return np.sum(x ** 2)


@pytest.mark.parametrize("sizes", [[2, 3, 2], [2, 2, 2]], ids=["shapes differ", "same shapes"])
def test_a_global_list_of_layer_dicts_is_specialised_without_a_warning(sizes, monkeypatch):
    """What the variant knows of a global list is the join of its items: two dicts of arrays
    were compared element by element (a ValueError, so a RuntimeWarning and the general
    code)."""
    monkeypatch.setitem(globals(), "GLOBAL_LAYERS", make_layers(sizes))
    x = rng.standard_normal((2, 4))
    g = sg.grad(through_global_layers)
    before = getattr(specialisation.variants_of(g), "made", 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = g(x)
    # a variant of its own (the guard describes the global's dicts: another list of them,
    # another variant)
    assert specialisation.variants_of(g).made == before + 1
    assert_tree_close(got, tree_numerical_grad(through_global_layers, (x,), 0))


def test_an_emitted_module_carries_the_helpers_and_gives_the_same_gradient():
    """``sourcegrad emit`` copies ``zero_slots`` and ``zeros_like_grad_with`` (and what they
    call) into the module, which runs without sourcegrad."""
    from sourcegrad import emit

    g = sg.grad(mlp_loss)
    header = emit.Header("tests/test_structure_zeros.py", "mlp_loss", ("layers",), "reverse",
                         "0" * 16, sg.__version__)
    text = emit.module_text(g, header)
    assert "def zero_slots(" in text and "def zeros_like_grad_with(" in text
    namespace: dict = {}
    exec(compile(text, "<emitted mlp_loss>", "exec"), namespace)
    layers = make_layers([4, 3, 2], extra=True)
    args = (layers, rng.standard_normal((4, 5)), rng.uniform(size=(2, 5)))
    assert_tree_close(namespace["grad_mlp_loss"](*args), g(*args), 1e-12, 1e-14)
