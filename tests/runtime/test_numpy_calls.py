"""NumPy functions called on tensors the way NumPy users write them: the calls NumPy
dispatches to the runtime are recorded (``np.block`` of nested lists, ``np.einsum`` in its
interleaved form and with any number of operands), the ones it does not (``np.r_``,
``np.c_``, ``np.array`` of tensors) refuse a tensor that requires grad, as PyTorch does,
instead of returning an array without its gradient. Side by side with PyTorch where it has
the operation, against central differences (first and second order) where it has not."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import numerical_vjp

from .parity import error_of, same

torch = pytest.importorskip("torch")

rng = np.random.default_rng(0)
A, B, C = rng.standard_normal((2, 3)), rng.standard_normal((3, 4)), rng.standard_normal((2, 4))


@pytest.mark.parametrize("build", [
    lambda m, a, b: np.r_[a, b],
    lambda m, a, b: np.r_[a],
    lambda m, a, b: np.r_[a.sum(0), 0:3],
    lambda m, a, b: np.c_[a, b],
    lambda m, a, b: np.array([a, b]),
    lambda m, a, b: np.asarray(a),
    lambda m, a, b: np.vstack([np.asarray(a[0]), b]),
], ids=["r_", "r_ of one", "r_ with a slice", "c_", "array", "asarray", "asarray inside"])
def test_numpy_that_cannot_dispatch_refuses_a_tensor_that_requires_grad(build):
    def action(m):
        a = m.tensor(A[:, :2].T @ A[:, :2], requires_grad=True)
        b = m.tensor(np.ones((2, 2)))
        return build(m, a, b)

    expected = error_of(lambda: action(torch))
    assert expected is not None and expected[0] is RuntimeError
    assert error_of(lambda: action(sg)) == expected


def test_numpy_that_cannot_dispatch_takes_constants_and_detached_tensors():
    def observe(m):
        a = m.tensor(A, requires_grad=True)
        with m.no_grad():
            in_no_grad = np.r_[a[0], a[1]]
        return np.r_[a.detach()[0], m.tensor(A)[1]], in_no_grad

    for got, expected in zip(observe(sg), observe(torch), strict=True):
        assert type(got) is type(expected) is np.ndarray
        np.testing.assert_array_equal(got, expected)


def _hvp_matches_finite_differences(fn, values):
    """The gradient of ``fn``'s weighted sum and, through ``create_graph``, the gradient of
    its pairing with a direction, both against central differences."""
    w = rng.standard_normal(np.shape(fn(*[sg.tensor(v) for v in values]).data))
    directions = [rng.standard_normal(np.shape(v)) for v in values]

    def objective(*arrays):
        out = fn(*[sg.tensor(a) for a in arrays]).data
        return float(np.sum(out * w + out * out / 2))

    def gradients(*arrays, create_graph=False):
        leaves = [sg.tensor(a, requires_grad=True) for a in arrays]
        out = fn(*leaves)
        return leaves, sg.autograd.grad((out * w + out * out / 2).sum(), leaves,
                                        create_graph=create_graph)

    def pairing(*arrays):
        return sum(float(np.sum(g.data * d)) for g, d in zip(
            gradients(*arrays)[1], directions, strict=True))

    _, grads = gradients(*values)
    for k in range(len(values)):
        np.testing.assert_allclose(grads[k].data, numerical_vjp(objective, values, k, 1.0),
                                   rtol=1e-6, atol=1e-8)
    leaves, grads = gradients(*values, create_graph=True)
    second = sg.autograd.grad(sum((g * sg.tensor(d)).sum() for g, d in zip(
        grads, directions, strict=True)), leaves)
    for k in range(len(values)):
        np.testing.assert_allclose(second[k].data, numerical_vjp(pairing, values, k, 1.0),
                                   rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("nest", [
    lambda a, b, c: np.block([[a, a * b], [c, c]]),
    lambda a, b, c: np.block([[[a]], [[b * c]]]),
    lambda a, b, c: np.block([a[0], 2.0, b[1] * c[0]]),
    lambda a, b, c: np.block([[a, np.ones((2, 1))], [np.zeros((1, 2)), b[:1, :1] * c[1:, 1:]]]),
], ids=["2x2 blocks", "three levels", "a number inside", "constants inside"])
def test_block_of_nested_lists_of_tensors(nest):
    a, b, c = rng.standard_normal((3, 2, 2))
    _hvp_matches_finite_differences(lambda a, b, c: nest(a, b, c) ** 2, [a, b, c])


@pytest.mark.parametrize("spelling", [
    (lambda m, a, b, c: np.einsum(a, [0, 1], b, [1, 2], [0, 2]),
     lambda m, a, b, c: m.einsum(a, [0, 1], b, [1, 2], [0, 2])),
    (lambda m, a, b, c: np.einsum(a, [0, 1], b, [1, 2]),
     lambda m, a, b, c: m.einsum(a, [0, 1], b, [1, 2])),
    (lambda m, a, b, c: np.einsum(a, [0, 1], b, [1, 2], c, [0, 2], [0]),
     lambda m, a, b, c: m.einsum(a, [0, 1], b, [1, 2], c, [0, 2], [0])),
    (lambda m, a, b, c: np.einsum("ij,jk,ik->i", a, b, c),
     lambda m, a, b, c: m.einsum("ij,jk,ik->i", a, b, c)),
    (lambda m, a, b, c: np.einsum(a, [Ellipsis, 1], a * a, [Ellipsis, 1]),
     lambda m, a, b, c: m.einsum(a, [Ellipsis, 1], a * a, [Ellipsis, 1])),
], ids=["sublists with an output", "sublists", "three operands with an output",
        "three operands in a string", "ellipsis"])
def test_einsum_in_every_form_matches_pytorch_to_second_order(spelling):
    ours, theirs = spelling

    def observe(m):
        a, b, c = (m.tensor(v, requires_grad=True) for v in (A, B, C))
        out = (ours if m is sg else theirs)(m, a, b, c)
        grads = m.autograd.grad((out * out).sum(), [a, b, c], create_graph=True,
                                allow_unused=True)
        live = [g for g in grads if g is not None]
        penalty = sum((g * g.detach() * 0.5 + g).sum() for g in live)
        return out, grads, m.autograd.grad(penalty, [a, b, c], allow_unused=True)

    same(observe)


@pytest.mark.parametrize("several", [
    lambda a, b: np.atleast_2d(a[0], b)[0] * a,
    lambda a, b: np.broadcast_arrays(a, b[:1])[1] * a,
    lambda a, b: np.atleast_1d(a, b[0])[1][0] * a,
    lambda a, b: np.atleast_1d(a * b) * a,
], ids=["atleast_2d", "broadcast_arrays", "atleast_1d", "atleast_1d of one"])
def test_variadic_functions_of_tensors_to_second_order(several):
    _hvp_matches_finite_differences(several, [A, C[:, :3]])


@pytest.mark.filterwarnings("ignore:Converting a tensor with requires_grad=True to a scalar")
def test_a_tensor_made_of_tensors_takes_their_values():
    def observe(m):
        x = m.tensor([1.5, -2.0], dtype=m.float64, requires_grad=True)
        made = [m.tensor([x[0], x[1] * 2]), m.tensor([x[0], 3.0]), m.tensor([[x[1]], [x[0]]])]
        return made, [t.requires_grad for t in made]

    same(observe)
