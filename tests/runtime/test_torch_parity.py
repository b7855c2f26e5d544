"""The same operations through PyTorch and sourcegrad, side by side: printed tensors,
node names, gradients, error types and messages, losses and optimizers."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sourcegrad as sg

torch = pytest.importorskip("torch")


def both(data, requires_grad=False, dtype=None):
    """The same data as a torch tensor and a sourcegrad tensor."""
    t = torch.tensor(data, requires_grad=requires_grad, dtype=dtype)
    s = sg.tensor(data, requires_grad=requires_grad,
                  dtype=None if dtype is None else str(dtype).replace("torch.", ""))
    return t, s


def as_sg_text(text):
    return text.replace("torch.", "sg.")


# ------------------------------------------------------------------------ printing

REPR_CASES = [
    [1.0, 2.0],
    [1.3567, 0.8755, -0.2205],
    [22.5349, 16.5370, 6.3329],
    15.1349,
    53.0,
    [-12.0, 65.0],
    [7.5492e-01, 8.7365e00, 8.4494e-03],
    [1e-5, 1.0],
    [1.0, 1e9],
    [0.0, math.nan],
    [1.0, math.inf],
    [-math.inf, 2.5, math.nan],
    [0.0, 0.0],
    [[0.0018, 0.3236, 0.1107]] * 5,
    [[4.0, 2.0], [2.0, 4.0]],
    [[[1.5, -2.25], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.125]]],
    [1, 2, 3],
    [1, 2**40],
    [-7, 0, 12],
    [True, False],
    3,
    [],
    [0.1 * i for i in range(30)],
    [123456.789, -0.5],
]


@pytest.mark.parametrize("data", REPR_CASES, ids=[f"case{i}" for i in range(len(REPR_CASES))])
def test_repr_matches(data):
    t, s = both(data)
    assert repr(s) == as_sg_text(repr(t))


@pytest.mark.parametrize("dtype", [torch.float64, torch.int32])
def test_repr_names_a_non_default_dtype(dtype):
    t, s = both([1.5, -2.0] if dtype.is_floating_point else [1, 2], dtype=dtype)
    assert repr(s) == as_sg_text(repr(t))


def test_repr_of_large_and_wide_tensors():
    data = np.random.default_rng(0).standard_normal((4, 40))
    assert repr(sg.from_numpy(data)) == as_sg_text(repr(torch.from_numpy(data)))
    assert repr(sg.arange(2000.0)) == repr(torch.arange(2000.0))
    block = np.arange(3000.0).reshape(30, 100).astype(np.float32) / 7
    assert repr(sg.from_numpy(block)) == repr(torch.from_numpy(block))
    assert repr(sg.zeros(0, 3)) == repr(torch.zeros(0, 3))


def test_repr_with_autograd_suffixes():
    t, s = both([2.0, 3.0], requires_grad=True)
    assert repr(s) == repr(t)
    assert repr(3 * s**3 - s**2) == repr(3 * t**3 - t**2)
    assert repr((s * s).mean()) == repr((t * t).mean())


# ------------------------------------------------------------------------ node names

NAMED_OPS = {
    "x + 2": lambda m, x: x + 2,
    "x * x": lambda m, x: x * x,
    "x - x": lambda m, x: x - x,
    "3 - x": lambda m, x: 3 - x,
    "x / 2": lambda m, x: x / 2,
    "-x": lambda m, x: -x,
    "x ** 2": lambda m, x: x**2,
    "x ** x": lambda m, x: x**x,
    "2 ** x": lambda m, x: 2**x,
    "sum": lambda m, x: x.sum(),
    "sum dim": lambda m, x: x.sum(1),
    "mean": lambda m, x: x.mean(),
    "mean dim": lambda m, x: x.mean(dim=0),
    "exp": lambda m, x: x.exp(),
    "log": lambda m, x: x.log(),
    "sqrt": lambda m, x: x.sqrt(),
    "tanh": lambda m, x: x.tanh(),
    "sigmoid": lambda m, x: x.sigmoid(),
    "relu": lambda m, x: x.relu(),
    "abs": lambda m, x: x.abs(),
    "clamp": lambda m, x: x.clamp(0, 1),
    "max": lambda m, x: x.max(),
    "max dim": lambda m, x: x.max(dim=1).values,
    "min dim": lambda m, x: x.min(dim=0).values,
    "reshape": lambda m, x: x.reshape(3, 2),
    "view": lambda m, x: x.view(6),
    "transpose": lambda m, x: x.transpose(0, 1),
    "T": lambda m, x: x.T,
    "mm": lambda m, x: x @ x.T,
    "select": lambda m, x: x[0],
    "slice": lambda m, x: x[:, 1:],
    "index": lambda m, x: x[[0, 1]],
    "unsqueeze": lambda m, x: x.unsqueeze(0),
    "maximum": lambda m, x: m.maximum(x, x * 2),
    "softmax": lambda m, x: m.nn.functional.softmax(x, dim=1),
    "log_softmax": lambda m, x: m.nn.functional.log_softmax(x, dim=1),
    "mse": lambda m, x: m.nn.functional.mse_loss(x, x.detach() + 1),
    "bce logits": lambda m, x: m.nn.functional.binary_cross_entropy_with_logits(
        x, x.detach() / 4),
    "bce": lambda m, x: m.nn.functional.binary_cross_entropy(x.sigmoid(), x.detach() / 4),
    "cross_entropy": lambda m, x: m.nn.functional.cross_entropy(x, m.tensor([0, 2])),
    "double": lambda m, x: x.double(),
}


@pytest.mark.parametrize("op", NAMED_OPS, ids=list(NAMED_OPS))
def test_node_names_match(op):
    t, s = both([[0.5, 1.5, 2.5], [0.25, 0.75, 1.25]], requires_grad=True)
    fn = NAMED_OPS[op]
    assert type(fn(sg, s).grad_fn).__name__ == type(fn(torch, t).grad_fn).__name__


# ------------------------------------------------------------------------ gradients

GRADIENT_CASES = {
    "polynomial": lambda m, a, b: (3 * a**3 - b**2).sum(),
    "broadcast add and mul": lambda m, a, b: ((a + b[0]) * b[:, :1]).sum(),
    "division": lambda m, a, b: (a / (b * b + 1)).mean(),
    "matmul": lambda m, a, b: (a @ b.T).tanh().sum(),
    "exp log sqrt": lambda m, a, b: ((a * a + 1).log() + (b * b + 1).sqrt() + a.exp()).sum(),
    "reductions with dims": lambda m, a, b: (a.sum(0) * b.mean(1, keepdim=True)).sum(),
    "max and min": lambda m, a, b: a.max() + b.min(dim=1).values.sum() + a.max(0)[0].sum(),
    "clamp and abs": lambda m, a, b: (a.clamp(-0.5, 0.5) + b.abs()).sum(),
    "indexing": lambda m, a, b: a[0].sum() + (a[:, 1] * b[1, 2]).sum() + a[[0, 0, 1]].sum(),
    "shapes": lambda m, a, b: (a.reshape(3, 2).T * b.transpose(0, 1).T).sum(),
    "sigmoid relu": lambda m, a, b: (a.sigmoid() * b.relu()).sum(),
    "pow with tensor exponent": lambda m, a, b: ((a * a + 1) ** b).sum(),
    "reused intermediate": lambda m, a, b: ((a * b).exp() * (a * b)).sum(),
}


@pytest.mark.parametrize("case", GRADIENT_CASES, ids=list(GRADIENT_CASES))
def test_gradients_match(case):
    rng = np.random.default_rng(1)
    a_data, b_data = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    ta, sa = both(a_data, requires_grad=True)
    tb, sb = both(b_data, requires_grad=True)
    GRADIENT_CASES[case](torch, ta, tb).backward()
    GRADIENT_CASES[case](sg, sa, sb).backward()
    np.testing.assert_allclose(sa.grad.numpy(), ta.grad.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(sb.grad.numpy(), tb.grad.numpy(), rtol=1e-10, atol=1e-12)


INTEGER_DTYPE_CASES = {
    "int times float": lambda x: x * 2.0,
    "float times int": lambda x: 2.0 * x,
    "int divided by int": lambda x: x / 2,
    "int plus float": lambda x: x + 1.5,
    "int minus int": lambda x: x - 1,
    "int to a float power": lambda x: x**0.5,
    "int sum": lambda x: x.sum(),
}


@pytest.mark.parametrize("case", INTEGER_DTYPE_CASES, ids=list(INTEGER_DTYPE_CASES))
def test_result_dtypes_of_integer_tensors_match(case):
    """A Python float is not a float64 array: mixed with integers it gives PyTorch's
    default float32."""
    t, s = both([1, 2, 3])
    t_out, s_out = INTEGER_DTYPE_CASES[case](t), INTEGER_DTYPE_CASES[case](s)
    assert s_out.dtype.name == str(t_out.dtype).replace("torch.", "")
    np.testing.assert_allclose(s_out.numpy(), t_out.numpy(), rtol=1e-6)


def test_float32_results_and_gradients_stay_float32():
    ta, sa = both([1.0, 2.0], requires_grad=True)
    out_t, out_s = (ta * 2.5 + 1).sum(), (sa * 2.5 + 1).sum()
    out_t.backward()
    out_s.backward()
    assert out_s.dtype == sg.float32 and sa.grad.dtype == sg.float32
    assert sg.tensor([1, 2]).dtype == sg.int64
    assert (sg.tensor([1, 2]) / sg.tensor([2, 2])).dtype == sg.float32
    assert str(torch.tensor([1, 2]) / torch.tensor([2, 2])) == str(
        sg.tensor([1, 2]) / sg.tensor([2, 2]))


# ------------------------------------------------------------------------ errors


def error_of(action):
    try:
        action()
    except Exception as error:  # noqa: BLE001  (any error is compared)
        return type(error), as_sg_text(str(error))
    return None


def second_backward(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


def in_place_on_leaf(m):
    w = m.ones(2, requires_grad=True)
    w -= 1


ERROR_CASES = {
    "non-scalar backward": lambda m: (m.ones(2, requires_grad=True) * 2).backward(),
    "no grad_fn": lambda m: m.ones(2).sum().backward(),
    "second backward": second_backward,
    "integer requires_grad": lambda m: m.tensor([1, 2], requires_grad=True),
    "integer requires_grad_": lambda m: m.tensor([1, 2]).requires_grad_(),
    "gradient shape": lambda m: (m.ones(2, requires_grad=True) * 2).backward(m.ones(3)),
    "in-place on leaf": in_place_on_leaf,
    "add_ on leaf": lambda m: m.ones(2, requires_grad=True).add_(1),
    "numpy of a tensor requiring grad": lambda m: m.ones(2, requires_grad=True).numpy(),
    "hook without grad": lambda m: m.ones(2).register_hook(print),
    "requires_grad off on non-leaf": lambda m: (m.ones(2, requires_grad=True) * 2)
    .requires_grad_(False),
    "item of a vector": lambda m: m.ones(2).item(),
    "unused input": lambda m: m.autograd.grad((m.ones(1, requires_grad=True) * 2).sum(),
                                              [m.ones(1, requires_grad=True)]),
    "input without grad": lambda m: m.autograd.grad((m.ones(1, requires_grad=True) * 2).sum(),
                                                    [m.ones(1)]),
    "retain_grad without grad": lambda m: m.ones(1).retain_grad(),
    "bool of a vector": lambda m: bool(m.ones(2)),
    "clamp without bounds": lambda m: m.ones(2).clamp(),
}


@pytest.mark.parametrize("case", ERROR_CASES, ids=list(ERROR_CASES))
def test_errors_match(case):
    expected = error_of(lambda: ERROR_CASES[case](torch))
    assert expected is not None
    assert error_of(lambda: ERROR_CASES[case](sg)) == expected


def test_non_leaf_grad_warning_matches():
    def warning_of(m):
        x = m.ones(2, requires_grad=True)
        y = x * 2
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert y.grad is None
        return caught[0].category, str(caught[0].message).split(" (Triggered internally")[0]

    assert warning_of(sg) == warning_of(torch)


def test_in_place_update_under_no_grad_matches():
    tw, sw = both([1.0, 2.0], requires_grad=True)
    for m, w in ((torch, tw), (sg, sw)):
        (w * w).sum().backward()
        with m.no_grad():
            w -= 0.1 * w.grad
        w.grad.zero_()
        assert w.is_leaf and w.requires_grad
    np.testing.assert_allclose(sw.detach().numpy(), tw.detach().numpy(), rtol=1e-7)
    np.testing.assert_array_equal(sw.grad.numpy(), tw.grad.numpy())


# ------------------------------------------------------------------------ nn.functional


def loss_inputs(name, rng):
    if name == "cross_entropy":
        return rng.standard_normal((4, 3)), np.array([0, 2, 1, 2])
    if name == "binary_cross_entropy":
        return rng.uniform(0.05, 0.95, (4, 3)), rng.uniform(0, 1, (4, 3))
    return rng.standard_normal((4, 3)), rng.uniform(0, 1, (4, 3))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", ["binary_cross_entropy_with_logits", "binary_cross_entropy",
                                  "mse_loss", "cross_entropy"])
def test_losses_match(name, reduction):
    rng = np.random.default_rng(2)
    x, y = loss_inputs(name, rng)
    weights = rng.standard_normal((4, 3) if reduction == "none" else ())[..., None].squeeze(-1)
    results = []
    for m in (torch, sg):
        xin = m.tensor(x, requires_grad=True)
        target = m.tensor(y, requires_grad=name != "cross_entropy")
        loss = getattr(m.nn.functional, name)(xin, target, reduction=reduction)
        if reduction == "none" and loss.ndim == 1:
            (loss * m.tensor(weights[:, 0])).sum().backward()
        else:
            (loss * m.tensor(weights)).sum().backward()
        grads = [xin.grad.numpy()] + ([target.grad.numpy()] if target.requires_grad else [])
        results.append((loss.detach().numpy(), grads))
    (t_loss, t_grads), (s_loss, s_grads) = results
    np.testing.assert_allclose(s_loss, t_loss, rtol=1e-10)
    for s_grad, t_grad in zip(s_grads, t_grads, strict=True):
        np.testing.assert_allclose(s_grad, t_grad, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_family_matches(name, dim):
    x = np.random.default_rng(3).standard_normal((3, 4)) * 5
    weights = np.random.default_rng(4).standard_normal((3, 4))
    grads = []
    for m in (torch, sg):
        xin = m.tensor(x, requires_grad=True)
        out = getattr(m.nn.functional, name)(xin, dim=dim)
        (out * m.tensor(weights)).sum().backward()
        grads.append((out.detach().numpy(), xin.grad.numpy()))
    np.testing.assert_allclose(grads[1][0], grads[0][0], rtol=1e-10)
    np.testing.assert_allclose(grads[1][1], grads[0][1], rtol=1e-9, atol=1e-12)


def test_extreme_logits_stay_finite():
    for m in (torch, sg):
        x = m.tensor([-1000.0, 0.0, 1000.0], requires_grad=True)
        loss = m.nn.functional.binary_cross_entropy_with_logits(x, m.tensor([1.0, 0.0, 0.0]))
        loss.backward()
        assert np.isfinite(loss.item()) and np.all(np.isfinite(x.grad.numpy()))


# ------------------------------------------------------------------------ optimizers


@pytest.mark.parametrize("make", [
    lambda m, p: m.optim.SGD(p, lr=0.1),
    lambda m, p: m.optim.SGD(p, lr=0.1, momentum=0.9),
    lambda m, p: m.optim.SGD(p, lr=0.05, momentum=0.5, weight_decay=0.01),
    lambda m, p: m.optim.Adam(p, lr=0.01),
    lambda m, p: m.optim.Adam(p, lr=0.1, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.1),
], ids=["sgd", "momentum", "momentum+decay", "adam", "adam+decay"])
def test_optimizer_steps_match(make):
    start = np.random.default_rng(5).standard_normal(4)
    finals = []
    for m in (torch, sg):
        w = m.tensor(start, requires_grad=True)
        optimizer = make(m, [w])
        for _ in range(5):
            optimizer.zero_grad()
            ((w - 1) ** 2 * m.tensor([1.0, 2.0, 3.0, 4.0], dtype=w.dtype)).sum().backward()
            optimizer.step()
        finals.append(w.detach().numpy().copy())
        optimizer.zero_grad()
        assert w.grad is None
    np.testing.assert_allclose(finals[1], finals[0], rtol=1e-10)


def modified_input(m):
    x = m.ones(2, requires_grad=True)
    c = m.ones(2)
    y = (x * c).sum()
    c.mul_(2)
    y.backward()


def modified_output(m):
    x = m.ones(2, requires_grad=True)
    y = x.exp()
    with m.no_grad():
        y.add_(1)
    y.sum().backward()


@pytest.mark.parametrize("action", [modified_input, modified_output])
def test_in_place_modification_errors_match(action):
    (t_type, t_message), (s_type, s_message) = error_of(lambda: action(torch)), error_of(
        lambda: action(sg))
    assert s_type is t_type
    # PyTorch names the storage type ("FloatTensor") where sourcegrad names the dtype, and
    # adds a hint about its anomaly detection, which sourcegrad does not have.
    expected = t_message.split(" Hint:")[0].replace("sg.FloatTensor", "sg.float32")
    assert s_message == expected


# ------------------------------------------------------------------------ random graphs

RANDOM_OPS = [
    lambda a, b: a + b,
    lambda a, b: a * b,
    lambda a, b: a - 2 * b,
    lambda a, b: (a * 0.5).tanh() * b,
    lambda a, b: a / (b * b + 1),
    lambda a, b: a.sigmoid() + b.sum(0, keepdim=True),
    lambda a, b: a.T.T * b.mean(),
]


@pytest.mark.parametrize("seed", range(8))
def test_random_graphs_with_shared_nodes_match(seed):
    """Programs that reuse intermediate values many times (fan-out and fan-in), so
    cotangents from several paths meet in the engine's buffers."""
    rng = np.random.default_rng(seed)
    leaves = [rng.standard_normal((2, 3)) for _ in range(3)]
    program = [(int(rng.integers(len(RANDOM_OPS))), int(rng.integers(k + 3)),
                int(rng.integers(k + 3))) for k in range(12)]
    grads = []
    for m in (torch, sg):
        pool = [m.tensor(leaf, requires_grad=True) for leaf in leaves]
        for op, i, j in program:
            pool.append(RANDOM_OPS[op](pool[i], pool[j]))
        (pool[-1] * pool[-2] + pool[-3]).sum().backward()
        grads.append([None if t.grad is None else t.grad.numpy() for t in pool[:3]])
    for s_grad, t_grad in zip(grads[1], grads[0], strict=True):
        if t_grad is None:  # a leaf the program never read
            assert s_grad is None
        else:
            np.testing.assert_allclose(s_grad, t_grad, rtol=1e-9, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(data=hnp.arrays(np.float32, hnp.array_shapes(max_dims=3, max_side=5),
                       elements=st.one_of(st.floats(-1e10, 1e10, width=32),
                                          st.sampled_from([0.0, -0.0, 1.0, 1e-6, -3.0]),
                                          st.integers(-1000, 1000).map(float))))
def test_repr_matches_on_drawn_float32_tensors(data):
    assert repr(sg.from_numpy(data.copy())) == repr(torch.from_numpy(data.copy()))


@settings(max_examples=30, deadline=None)
@given(data=hnp.arrays(np.int64, hnp.array_shapes(max_dims=2, max_side=6),
                       elements=st.integers(-(10**12), 10**12)))
def test_repr_matches_on_drawn_integer_tensors(data):
    assert repr(sg.from_numpy(data.copy())) == repr(torch.from_numpy(data.copy()))
