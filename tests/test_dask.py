"""Generated derivatives on Dask arrays (contract section 1c): lazy, one graph, the same numbers.

Calling a derivative of Dask arrays must compute nothing (a ``dask.callbacks.Callback``
counts every computation the local schedulers start); its gradients come back as Dask
collections, which one ``dask.compute`` evaluates to what central finite differences of the
NumPy function give. One test runs the same on a two-process ``dask.distributed`` cluster.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sourcegrad as sg

from .fd import assert_tree_close, tree_numerical_grad
from .golden_functions import GOLDEN, GOLDEN_OPTIONS

dask = pytest.importorskip("dask", reason="the `dask` extra: pip install 'sourcegrad[dask]'")
da = pytest.importorskip("dask.array")
Callback = pytest.importorskip("dask.callbacks").Callback

ROOT = Path(__file__).resolve().parent.parent

# the golden functions that make sense on chunked data: elementwise arithmetic, matmul,
# reductions with and without an axis, broadcasting, loops and branches on scalars (not on
# the data: a Python `if` on a Dask value is refused, see below), structures of parameters
CHUNKED = ["straight", "reassign", "for_range", "loop_carried", "for_over_array", "for_zip",
           "elif_chain", "calls_user_function", "list_append_stack",
           "logistic_regression", "mlp", "rnn", "lambda", "for_layer_in_params",
           "namedtuple_parameters", "has_aux", "nested_grad", "break_and_continue"]


class Computations(Callback):
    """Counts the computations started while it is active."""

    def __init__(self):
        super().__init__()
        self.started = 0

    def _start(self, dsk):
        self.started += 1


def chunked(x):
    """``x`` with each float array of it a Dask array of (up to) two chunks along axis 0."""
    if isinstance(x, np.ndarray) and x.ndim >= 1:
        return da.from_array(x, chunks=(max(1, (x.shape[0] + 1) // 2),) + x.shape[1:])
    if isinstance(x, dict):
        return {k: chunked(v) for k, v in x.items()}
    if isinstance(x, list):
        return [chunked(v) for v in x]
    if isinstance(x, tuple) and hasattr(type(x), "_fields"):
        return type(x)(*[chunked(v) for v in x])
    return x


def leaves(tree):
    if isinstance(tree, dict):
        return [leaf for v in tree.values() for leaf in leaves(v)]
    if isinstance(tree, (list, tuple)):
        return [leaf for v in tree for leaf in leaves(v)]
    return [tree]


def expected_gradient(name):
    fn, args, wrt = GOLDEN[name]
    loss = (lambda *a: fn(*a)[0]) if GOLDEN_OPTIONS.get(name, {}).get("has_aux") else fn
    argnums = wrt if isinstance(wrt, tuple) else (wrt,)
    expected = tuple(tree_numerical_grad(loss, args, i) for i in argnums)
    return expected if isinstance(wrt, tuple) else expected[0]


def lazy_arguments(name, which):
    """The golden arguments with every array a Dask array (``every``), or only those not
    differentiated (``data``: parameters stay NumPy, as in a training loop)."""
    _, args, wrt = GOLDEN[name]
    argnums = wrt if isinstance(wrt, tuple) else (wrt,)
    return tuple(a if which == "data" and i in argnums else chunked(a)
                 for i, a in enumerate(args))


def _cases():
    for name in CHUNKED:
        _, args, wrt = GOLDEN[name]
        argnums = wrt if isinstance(wrt, tuple) else (wrt,)
        yield name, "every"
        if any(isinstance(a, np.ndarray) for i, a in enumerate(args) if i not in argnums):
            yield name, "data"


@pytest.mark.parametrize(("name", "which"), list(_cases()))
def test_gradients_on_dask_arrays_are_lazy_and_right(name, which):
    fn, _, wrt = GOLDEN[name]
    grad_fn = sg.grad(fn, wrt=wrt, **GOLDEN_OPTIONS.get(name, {}))
    args = lazy_arguments(name, which)
    with Computations() as computations:
        result = grad_fn(*args)
    assert computations.started == 0, "calling the derivative computed part of the graph"
    grads = result[0] if GOLDEN_OPTIONS.get(name, {}).get("has_aux") else result
    float_leaves = [leaf for leaf in leaves(grads) if leaf is not None]
    assert float_leaves and all(dask.is_dask_collection(leaf) for leaf in float_leaves), [
        type(leaf) for leaf in float_leaves]
    (computed,) = dask.compute(grads)
    assert_tree_close(computed, expected_gradient(name))


def logistic_loss(w, b, X, y):
    z = X @ w + b
    return np.mean(np.logaddexp(0.0, z) - y * z)


def data(rows=40, features=3, chunk=10, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((rows, features))
    y = (rng.random(rows) > 0.5).astype(float)
    w = rng.standard_normal(features)
    return w, 0.3, X, y, da.from_array(X, chunks=(chunk, features)), da.from_array(y, chunk)


def test_a_float_parameter_gets_a_dask_scalar():
    w, b, _, _, X, y = data()
    with Computations() as computations:
        grad_b = sg.grad(logistic_loss, wrt="b")(w, b, X, y)
    assert computations.started == 0
    assert dask.is_dask_collection(grad_b) and grad_b.shape == ()
    assert isinstance(float(grad_b.compute()), float)


def test_value_and_grad_builds_one_graph_that_one_compute_evaluates():
    w, b, Xn, yn, X, y = data()
    with Computations() as computations:
        value, (grad_w, grad_b) = sg.value_and_grad(logistic_loss, wrt=("w", "b"))(w, b, X, y)
    assert computations.started == 0
    # the value and the gradients read the same lazy `X @ w + b`: one node of one graph
    z = (X @ w + b).name
    for result in (value, grad_w, grad_b):
        assert dask.is_dask_collection(result)
        assert z in result.__dask_graph__().layers
    with Computations() as computations:
        value, grad_w, grad_b = dask.compute(value, grad_w, grad_b)
    assert computations.started == 1
    assert value == pytest.approx(logistic_loss(w, b, Xn, yn), rel=1e-12)
    assert_tree_close((grad_w, grad_b),
                      tuple(tree_numerical_grad(logistic_loss, (w, b, Xn, yn), i)
                            for i in (0, 1)))


def test_forward_mode_and_vjp_stay_lazy_too():
    w, b, Xn, yn, X, y = data()
    direction = np.linspace(-1.0, 1.0, w.size)
    with Computations() as computations:
        _, tangent = sg.jvp(logistic_loss, (w, b, X, y), (direction, 0.0, None, None))
        _, pullback = sg.vjp(logistic_loss, w, b, X, y)
        grad_w, grad_b, _, _ = pullback(1.0)
    assert computations.started == 0
    assert all(dask.is_dask_collection(v) for v in (tangent, grad_w, grad_b))
    expected_w = tree_numerical_grad(logistic_loss, (w, b, Xn, yn), 0)
    tangent, grad_w = dask.compute(tangent, grad_w)
    assert tangent == pytest.approx(expected_w @ direction, rel=1e-6)
    assert_tree_close(grad_w, expected_w)


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("w_shape", [(3,), (1, 3), (8, 1), ()])
def test_reductions_over_axes_of_broadcast_products(axis, keepdims, w_shape):
    rng = np.random.default_rng(4)
    xn = rng.standard_normal((8, 3))
    w = rng.standard_normal(w_shape) if w_shape else 0.7

    def loss(w, x):
        reduced = np.sum(np.tanh(x * w) ** 2, axis=axis, keepdims=keepdims)
        return np.mean(np.exp(-reduced) * 1.5) + np.max(x * w)

    x = da.from_array(xn, chunks=(3, 2))
    with Computations() as computations:
        grads = sg.grad(loss, wrt=(0, 1))(w, x)
    assert computations.started == 0
    assert all(dask.is_dask_collection(g) for g in grads)
    (computed,) = dask.compute(grads)
    expected = tuple(tree_numerical_grad(loss, (w, xn), i) for i in (0, 1))
    assert_tree_close(computed, expected)


def ridge_loss(w, X, y):
    residual = X @ w - y
    return np.sum(residual ** 2) + 0.1 * np.sum(w ** 2)


def test_a_lazy_term_added_to_a_numpy_gradient():
    # grad_w starts as the penalty's NumPy gradient; the data's term, a Dask array, is added
    # to it (in place, NumPy refuses it: "The out parameter is not fully supported")
    w, _, Xn, yn, X, y = data()
    with Computations() as computations:
        grad_w = sg.grad(ridge_loss)(w, X, y)
    assert computations.started == 0 and dask.is_dask_collection(grad_w)
    assert_tree_close(grad_w.compute(), tree_numerical_grad(ridge_loss, (w, Xn, yn), 0))


def gathered(x, weights):
    picked = x[np.array([0, 2, 0, 5, 2, 0])]
    return np.sum(np.tanh(picked) * weights)


def test_rows_gathered_more_than_once_add_up_in_a_dask_gradient():
    rng = np.random.default_rng(3)
    xn, weights = rng.standard_normal((6, 2)), rng.standard_normal((6, 2))
    with Computations() as computations:
        grad_x = sg.grad(gathered)(da.from_array(xn, chunks=(3, 2)), weights)
    assert computations.started == 0 and dask.is_dask_collection(grad_x)
    assert_tree_close(grad_x.compute(), tree_numerical_grad(gathered, (xn, weights), 0))


def mean_of_selected_rows(w, X):
    return np.mean(np.tanh(X[X[:, 0] > 0] @ w) ** 2)


def mean_of_selected_rows_per_column(w, X):
    return np.sum(np.mean(np.sin(X[X[:, 1] < 0.5] * w), axis=0, keepdims=True) ** 2)


@pytest.mark.parametrize("loss", [mean_of_selected_rows, mean_of_selected_rows_per_column])
def test_a_mean_over_rows_a_boolean_mask_selects_stays_lazy_and_right(loss):
    """A Dask array indexed by a lazy boolean mask does not know its length (its size is
    nan): the mean's count was read from that size, and the gradient came out all nan."""
    rng = np.random.default_rng(5)
    Xn, w = rng.standard_normal((12, 3)), rng.standard_normal(3)
    X = da.from_array(Xn, chunks=(4, 3))
    expected = tree_numerical_grad(loss, (w, Xn), 0)
    with Computations() as computations:
        grad_w = sg.grad(loss)(w, X)
        value, grad_w_too = sg.value_and_grad(loss)(w, X)
    assert computations.started == 0
    assert dask.is_dask_collection(grad_w) and dask.is_dask_collection(grad_w_too)
    assert_tree_close(grad_w.compute(), expected)
    value, grad_w_too = dask.compute(value, grad_w_too)
    assert_tree_close(grad_w_too, expected)
    np.testing.assert_allclose(value, loss(w, Xn))


def padded(w, X):
    return np.sum(np.pad(X * w, ((1, 2), (0, 1))) ** 2)


def padded_edges(w, X):
    return np.sum(np.sin(np.pad(X * w, 1, mode="edge")) * 1.5)


def padded_reflections(w, X):
    return np.sum(np.pad(X * w, 2, mode="reflect") ** 3)


def taken(w, X):
    return np.sum(np.take(X @ w, [0, 0, 3]) ** 2) + np.sum(np.take(X * w, [1, 1], axis=1) ** 2)


def repeated(w, X):
    return np.sum(np.repeat(X @ w, 2) ** 2) + np.sum(np.repeat(X * w, 2, axis=0) ** 3)


COPYING = [padded, padded_edges, padded_reflections, taken, repeated]


@pytest.mark.parametrize("loss", COPYING)
@pytest.mark.parametrize("wrt", [0, 1])
def test_functions_that_copy_elements_have_lazy_gradients(loss, wrt):
    """np.pad, np.take and np.repeat's derivatives add cotangents into bins (np.bincount,
    np.add.at), which Dask does not take with NumPy bins: they failed with an
    AttributeError or a TypeError from inside generated code."""
    rng = np.random.default_rng(6)
    Xn, w = rng.standard_normal((6, 4)), rng.standard_normal(4)
    X = da.from_array(Xn, chunks=(2, 3))
    with Computations() as computations:
        gradient = sg.grad(loss, wrt=wrt)(w, X)
    assert computations.started == 0 and dask.is_dask_collection(gradient)
    assert_tree_close(gradient.compute(), tree_numerical_grad(loss, (w, Xn), wrt))


def diagonals(a, offset, axis1, axis2):
    return np.sum(np.sin(np.diagonal(a, offset, axis1, axis2)) * 1.3) + np.trace(a[0] ** 2)


@pytest.mark.parametrize("offset, axis1, axis2", [(0, 0, 1), (1, 0, 2), (-2, 2, 1), (7, 1, 2)])
def test_the_gradient_of_a_diagonal_is_lazy(offset, axis1, axis2):
    """undiagonal wrote the Dask cotangent into a NumPy array, which computed it."""
    an = np.random.default_rng(7).standard_normal((3, 4, 5))
    a = da.from_array(an, chunks=(2, 2, 3))
    with Computations() as computations:
        gradient = sg.grad(diagonals)(a, offset, axis1, axis2)
    assert computations.started == 0 and dask.is_dask_collection(gradient)
    expected = tree_numerical_grad(diagonals, (an, offset, axis1, axis2), 0)
    assert_tree_close(gradient.compute(), expected)


def branch_on_the_data(w, X):
    score = np.sum(X @ w)
    if score > 0:
        return score ** 2
    return -score


def test_an_if_on_a_lazy_value_is_refused_naming_the_users_line():
    w, _, _, _, X, _ = data()
    with Computations() as computations, pytest.raises(sg.SourcegradError) as caught:
        sg.grad(branch_on_the_data)(w, X)
    assert computations.started == 0
    message = str(caught.value)
    assert "`if`" in message and "np.where" in message and "dask" in message
    line = branch_on_the_data.__code__.co_firstlineno + 2
    assert any(f"line {line}, in branch_on_the_data: if score > 0:" in note
               for note in caught.value.__notes__), caught.value.__notes__


def test_the_same_gradient_on_a_two_process_cluster():
    distributed = pytest.importorskip("distributed")
    w, b, Xn, yn, X, y = data(rows=200, chunk=50)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        value, grads = sg.value_and_grad(logistic_loss, wrt=("w", "b"))(w, b, X, y)
        value, grad_w, grad_b = client.compute([value, *grads], sync=True)
    assert value == pytest.approx(logistic_loss(w, b, Xn, yn), rel=1e-12)
    assert_tree_close((grad_w, float(grad_b)),
                      tuple(tree_numerical_grad(logistic_loss, (w, b, Xn, yn), i)
                            for i in (0, 1)))


def test_importing_sourcegrad_imports_no_dask():
    code = "import sys, sourcegrad; print(sorted(m for m in sys.modules if 'dask' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert out.strip() == "[]"
