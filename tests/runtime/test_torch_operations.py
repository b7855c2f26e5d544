"""The tensor methods and ``sg`` functions of ``runtime/operations.py`` side by side with
PyTorch: values, dtypes, node names and gradients (through ``.backward()``) in float32 and
float64, with ``dim``/``keepdim`` variants and broadcasting; results without a gradient
(indices, masks, counts); PyTorch's defaults (``std`` is unbiased) and error messages."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sourcegrad as sg

from .parity import same, same_error

torch = pytest.importorskip("torch")

# distinct positive values (no ties for sort, median, max), and a vector to broadcast
X = ((np.random.default_rng(0).permutation(12) + 1) / 4).reshape(3, 4)
Y = np.array([0.7, -1.3, 2.1, 0.45])
INDEX = np.array([[0, 3], [2, 2], [1, 0]])


def _square(m, x):
    """A well-conditioned 3x3 matrix made from ``x``."""
    return x[:, :3] + 3 * m.eye(3, dtype=x.dtype)


# name: fn(m, x, y) -> a tensor, or a tuple of tensors (each weighted into the loss)
OPERATIONS = {
    # elementwise
    "neg": lambda m, x, y: x.neg(),
    "m.neg": lambda m, x, y: m.neg(y),
    "square": lambda m, x, y: x.square(),
    "reciprocal": lambda m, x, y: y.reciprocal(),
    "rsqrt": lambda m, x, y: x.rsqrt(),
    "log1p": lambda m, x, y: x.log1p(),
    "expm1": lambda m, x, y: m.expm1(y),
    "log2": lambda m, x, y: x.log2(),
    "log10": lambda m, x, y: m.log10(x),
    "sinh": lambda m, x, y: x.sinh(),
    "cosh": lambda m, x, y: m.cosh(y),
    "erf": lambda m, x, y: (x - 1.6).erf(),
    "sign": lambda m, x, y: y.sign() * x,
    "floor": lambda m, x, y: (x - 1.6).floor() + x,
    "ceil": lambda m, x, y: m.ceil(x - 1.6),
    "round": lambda m, x, y: (x * 1.3).round(),
    "trunc": lambda m, x, y: (x - 1.6).trunc(),
    "maximum broadcast": lambda m, x, y: x.maximum(y),
    "minimum broadcast": lambda m, x, y: m.minimum(y, x),
    "atan2": lambda m, x, y: x.atan2(y),
    "atan2 broadcast": lambda m, x, y: m.atan2(y, x),
    "hypot": lambda m, x, y: x.hypot(y),
    "fmod": lambda m, x, y: (x - 1.6).fmod(0.7),
    "remainder": lambda m, x, y: m.remainder(x - 1.6, 0.7),
    "lerp number": lambda m, x, y: x.lerp(y, 0.3),
    "lerp tensor": lambda m, x, y: m.lerp(y, x, x / 4),
    "clamp_min": lambda m, x, y: x.clamp_min(1.0),
    "clamp_max": lambda m, x, y: x.clamp_max(1.0),
    # reductions
    "prod": lambda m, x, y: x.prod(),
    "prod dim": lambda m, x, y: x.prod(1),
    "prod keepdim": lambda m, x, y: m.prod(x, 0, keepdim=True),
    "std": lambda m, x, y: x.std(),
    "std dim": lambda m, x, y: x.std(1),
    "std biased": lambda m, x, y: x.std(0, unbiased=False),
    "std correction keepdim": lambda m, x, y: m.std(x, dim=1, correction=0, keepdim=True),
    "std legacy unbiased": lambda m, x, y: x.std(False),
    "var": lambda m, x, y: x.var(),
    "var dims": lambda m, x, y: x.var((0, 1)),
    "var dim": lambda m, x, y: m.var(x, 0, keepdim=True),
    "var_mean": lambda m, x, y: m.var_mean(x, 1),
    "std_mean": lambda m, x, y: m.std_mean(x, dim=0, keepdim=True),
    "norm": lambda m, x, y: x.norm(),
    "norm p1": lambda m, x, y: y.norm(p=1),
    "norm dim": lambda m, x, y: x.norm(dim=1),
    "norm inf keepdim": lambda m, x, y: m.norm(x, float("inf"), 0, keepdim=True),
    "norm p3": lambda m, x, y: x.norm(3),
    "norm fro dims": lambda m, x, y: x.norm("fro", (0, 1)),
    "dist": lambda m, x, y: m.dist(x, y),
    "logsumexp": lambda m, x, y: x.logsumexp(1),
    "logsumexp dims": lambda m, x, y: m.logsumexp(x, (0, 1)),
    "logsumexp keepdim": lambda m, x, y: x.logsumexp(0, keepdim=True),
    "amax": lambda m, x, y: x.amax(1),
    "amax all": lambda m, x, y: x.amax(),
    "amin keepdim": lambda m, x, y: m.amin(x, 0, keepdim=True),
    "median": lambda m, x, y: x.median(),
    "median dim": lambda m, x, y: x.median(1).values,
    "median keepdim": lambda m, x, y: m.median(x, 0, keepdim=True)[0],
    "median vector": lambda m, x, y: y.median(),
    "cumsum": lambda m, x, y: x.cumsum(1),
    "cumsum dim 0": lambda m, x, y: m.cumsum(x, dim=0),
    "cumprod": lambda m, x, y: x.cumprod(1),
    "cumprod negative dim": lambda m, x, y: m.cumprod(y, -1),
    "softmax": lambda m, x, y: x.softmax(0),
    "softmax function": lambda m, x, y: m.softmax(x, dim=-1),
    "log_softmax": lambda m, x, y: x.log_softmax(1),
    "log_softmax function": lambda m, x, y: m.log_softmax(x, 0),
    # sorting and selecting
    "sort": lambda m, x, y: x.sort().values,
    "sort descending dim 0": lambda m, x, y: x.sort(0, descending=True)[0],
    "sort function": lambda m, x, y: m.sort(y).values,
    "topk": lambda m, x, y: x.topk(2).values,
    "topk smallest dim 0": lambda m, x, y: m.topk(x, 2, dim=0, largest=False).values,
    "gather": lambda m, x, y: x.gather(1, m.tensor(INDEX)),
    "gather smaller": lambda m, x, y: m.gather(x, 0, m.tensor([[2, 0], [0, 0]])),
    "index_select": lambda m, x, y: x.index_select(1, m.tensor([3, 0, 3])),
    "index_select function": lambda m, x, y: m.index_select(x, 0, m.tensor([2, 2])),
    "take": lambda m, x, y: m.take(x, m.tensor([[0, 11], [5, 5]])),
    "select": lambda m, x, y: x.select(1, 2),
    "select negative": lambda m, x, y: m.select(x, -2, 0),
    "masked_fill": lambda m, x, y: x.masked_fill(x > 1.5, 0.0),
    "masked_fill broadcast": lambda m, x, y: m.masked_fill(x, y > 0, -1.0),
    "masked_fill tensor value": lambda m, x, y: x.masked_fill(x < 1.0, y[0]),
    "where": lambda m, x, y: m.where(x > 1.5, x, y),
    "where number": lambda m, x, y: m.where(y > 0, y, 0.0),
    "flip": lambda m, x, y: x.flip(0),
    "flip dims": lambda m, x, y: m.flip(x, (0, 1)),
    "diff": lambda m, x, y: x.diff(),
    "diff dim 0": lambda m, x, y: m.diff(x, dim=0),
    "repeat_interleave": lambda m, x, y: x.repeat_interleave(2, dim=0),
    "vstack": lambda m, x, y: m.vstack([x, y]),
    "hstack": lambda m, x, y: m.hstack([x, x * 2]),
    "mT": lambda m, x, y: x.reshape(3, 2, 2).mT,
    "contiguous": lambda m, x, y: (x * 1).T.contiguous(),
    # products and matrices
    "dot": lambda m, x, y: x[0].dot(y),
    "dot function": lambda m, x, y: m.dot(y, y),
    "mm": lambda m, x, y: x.mm(x.T),
    "bmm": lambda m, x, y: m.bmm(x.reshape(3, 2, 2), x.reshape(3, 2, 2)),
    "mv": lambda m, x, y: x.mv(y),
    "outer": lambda m, x, y: m.outer(x[1], y),
    "addmm": lambda m, x, y: m.addmm(y, x.T, x),
    "addmm beta alpha": lambda m, x, y: m.addmm(y, x.T, x, beta=0.5, alpha=2.0),
    "trace": lambda m, x, y: x.trace(),
    "diag of a vector": lambda m, x, y: y.diag(),
    "diag of a matrix": lambda m, x, y: m.diag(x, 1),
    "diagonal": lambda m, x, y: x.diagonal(),
    "diagonal offset": lambda m, x, y: m.diagonal(x.reshape(3, 2, 2), 0, 1, 2),
    "tril": lambda m, x, y: x.tril(),
    "triu": lambda m, x, y: m.triu(x, 1),
    "tril batch": lambda m, x, y: x.reshape(3, 2, 2).tril(-1),
    "inverse": lambda m, x, y: _square(m, x).inverse(),
    "det": lambda m, x, y: m.det(_square(m, x)),
    "logdet": lambda m, x, y: _square(m, x).logdet(),
    "kron": lambda m, x, y: m.kron(x[0], y),
    "cross": lambda m, x, y: m.cross(x[:, :3], x[:, 1:], dim=1),
    "einsum": lambda m, x, y: m.einsum("ij,j->i", x, y),
    "einsum list": lambda m, x, y: m.einsum("ij,kj->ik", [x, x]),
}

# PyTorch records these as several nodes, or names a node by how it computes it
# (``kron``: ``UnsafeViewBackward0``): their node names are not compared.
NAMED_OTHERWISE = {"var_mean", "std_mean", "repeat_interleave", "kron", "einsum",
                   "einsum list"}


def _observe(name, dtype):
    def observe(m):
        x = m.tensor(X, dtype=getattr(m, dtype), requires_grad=True)
        y = m.tensor(Y, dtype=getattr(m, dtype), requires_grad=True)
        out = OPERATIONS[name](m, x, y)
        outs = out if isinstance(out, tuple) else (out,)
        loss = sum((o * m.tensor(np.cos(np.arange(o.numel())).reshape(tuple(o.shape)),
                                 dtype=o.dtype)).sum() for o in outs)
        loss.backward()
        names = () if name in NAMED_OTHERWISE else tuple(type(o.grad_fn).__name__ for o in outs)
        return outs, names, x.grad, y.grad

    return observe


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", OPERATIONS, ids=list(OPERATIONS))
def test_values_node_names_and_gradients_match(name, dtype):
    same(_observe(name, dtype), atol=1e-12 if dtype == "float64" else 1e-5)


@pytest.mark.parametrize("name", ["floor", "ceil", "round", "trunc", "sign"])
def test_piecewise_constant_functions_are_recorded_with_a_zero_gradient(name):
    def observe(m):
        x = m.tensor(X - 1.6, requires_grad=True)
        out = getattr(x, name)()
        out.sum().backward()
        return out, type(out.grad_fn).__name__, x.grad

    same(observe)


def test_piecewise_constant_functions_keep_integers():
    def observe(m):
        x = m.tensor([[1, -2], [3, 4]])
        return (x.floor(), x.ceil(), x.round(), x.trunc(), x.sign(), x.neg(), x.square(),
                x.masked_fill(x > 2, -1), m.where(x > 2, x, 0))

    same(observe)


def test_integer_tensors_give_float_results_where_pytorch_does():
    def observe(m):
        x = m.tensor([1, 2, 4])
        return (x.reciprocal(), x.rsqrt(), x.log2(), x.log1p(), m.logsumexp(x, 0),
                x.prod(), x.cumsum(0), x.cumprod(0), m.prod(m.tensor([True, True])))

    same(observe)


UNTRACKED = {
    "eq": lambda m, x, y: (x.eq(y), m.eq(x, 2.0), x.ne(y), m.ne(y, y)),
    "order": lambda m, x, y: (x.lt(y), m.le(x, 2.0), x.gt(1.0), m.ge(y, x)),
    "argsort": lambda m, x, y: (x.argsort(), m.argsort(x, 0, descending=True),
                                y.argsort(descending=True)),
    "sort indices": lambda m, x, y: (x.sort(1)[1], x.topk(3, largest=False)[1],
                                     x.median(0).indices, x.max(1).indices),
    "nonzero": lambda m, x, y: ((x > 2).nonzero(), m.nonzero(y > 0, as_tuple=True),
                                m.argwhere(x > 2)),
    "count_nonzero": lambda m, x, y: (m.count_nonzero(x > 2), (x > 1).count_nonzero(0)),
    "all any": lambda m, x, y: (m.all(x > 0), m.any(y > 2, 0), m.all(x > 1, dim=1),
                                m.argmax(x), m.argmin(x, 1), m.numel(x)),
    "close": lambda m, x, y: (m.allclose(x, x + 1e-9), m.isclose(y, y * (1 + 1e-7)),
                              m.equal(x, x), m.equal(x, y), x.allclose(x * 2),
                              m.isnan(y.log()), m.isinf(1 / (y - y)), m.isfinite(y / 0)),
    "info": lambda m, x, y: (x.ndimension(), x.nelement(), x.is_contiguous(),
                             x.T.is_contiguous(),
                             (x.type(), m.tensor([1]).type()) == (
                                 f"{m.__name__.replace('sourcegrad', 'sg')}.FloatTensor",
                                 f"{m.__name__.replace('sourcegrad', 'sg')}.LongTensor"),
                             x.cpu() is x, x.contiguous() is x, m.is_tensor(x),
                             m.is_tensor(X)),
    "new tensors": lambda m, x, y: (x.new_zeros(2, 3), x.new_ones((2,)), x.new_full((2,), 3),
                                    x.new_tensor([1, 2]), m.tensor([1]).new_zeros(2),
                                    x.new_zeros(2, dtype=m.int64), x.new_empty(2).shape,
                                    x.new_zeros(1, requires_grad=True).requires_grad),
    "linspace": lambda m, x, y: (m.linspace(0, 1, 5), m.linspace(-2.0, 2.0, steps=3),
                                 m.linspace(0, 1, 3, dtype=m.float64)),
    "as_tensor": lambda m, x, y: (m.as_tensor([1.0, 2.0]), m.as_tensor(X), m.as_tensor(x) is x,
                                  m.as_tensor(x, dtype=m.float32)),
    "meshgrid": lambda m, x, y: (*m.meshgrid(y, x[0], indexing="ij"),
                                 *m.meshgrid(y[:2], x[0, :3], indexing="xy")),
    "type cast": lambda m, x, y: (x.type(m.float32), m.t(x), m.clip(x, 1.0, 2.0)),
}


@pytest.mark.parametrize("name", UNTRACKED, ids=list(UNTRACKED))
def test_results_without_gradients_match(name):
    def observe(m):
        x = m.tensor(X, requires_grad=True)
        y = m.tensor(Y)
        with np.errstate(divide="ignore", invalid="ignore"):
            return UNTRACKED[name](m, x, y)

    same(observe)


def test_the_results_of_sort_topk_and_median_are_named_values_and_indices():
    x = sg.tensor(X)
    for result in (x.sort(), x.topk(2), x.median(0), sg.sort(x, 0)):
        values, indices = result
        assert result.values is values and result.indices is indices


def test_logdet_of_a_negative_determinant_is_nan_and_masked_fill__is_recorded():
    def observe(m):
        x = m.tensor([[0.0, 1.0], [1.0, 0.0]], requires_grad=True)
        w = m.tensor([[-1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        y = w * 1
        y.masked_fill_(y < 0, 0.0)
        (y * m.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        return x.logdet(), y, w.grad

    same(observe)


def test_descending_sort_keeps_ties_in_order_as_pytorch_does():
    def observe(m):
        x = m.tensor([[2.0, 1.0, 2.0, 3.0, 1.0]])
        return (x.sort(descending=True, stable=True), x.sort(stable=True),
                x.argsort(descending=True, stable=True))

    same(observe)


def test_flip_is_a_copy_as_in_pytorch():
    def observe(m):
        x = m.tensor([1.0, 2.0, 3.0])
        y = x.flip(0)
        y[0] = 10.0
        return x, y, y._is_view()

    same(observe)


def test_new_and_as_tensor_share_or_copy_memory_as_pytorch_does():
    for m in (torch, sg):
        a = np.array([1.0, 2.0])
        shared, copied = m.as_tensor(a), m.as_tensor(a, dtype=m.float32)
        a[0] = 5.0
        assert shared[0].item() == 5.0 and copied[0].item() == 1.0
        x = m.tensor([1.0])
        assert not x.new_tensor([2.0]).requires_grad


ERRORS = {
    "dot of matrices": lambda m: m.ones(2, 2).dot(m.ones(2, 2)),
    "mm of a vector": lambda m: m.ones(2).mm(m.ones(2, 2)),
    "mm by a vector": lambda m: m.ones(2, 2).mm(m.ones(2)),
    "bmm of matrices": lambda m: m.ones(2, 2).bmm(m.ones(2, 2, 2)),
    "bmm by matrices": lambda m: m.ones(2, 2, 2).bmm(m.ones(2, 2)),
    "mv of matrices": lambda m: m.ones(2, 2).mv(m.ones(2, 2)),
    "trace of a batch": lambda m: m.ones(2, 2, 2).trace(),
    "topk too many": lambda m: m.ones(3).topk(4),
    "gather of another rank": lambda m: m.ones(2, 2).gather(1, m.tensor([0])),
    "index_select by a matrix": lambda m: m.ones(2, 2).index_select(0, m.tensor([[0]])),
    "mT of a vector": lambda m: m.ones(2).mT,
    "diag of a batch": lambda m: m.ones(2, 2, 2).diag(),
    "prod dim out of range": lambda m: m.ones(3, 4).prod(2),
    "std dims out of range": lambda m: m.ones(3, 4).std((0, -3)),
    "logsumexp dim out of range": lambda m: m.ones(3, 4).logsumexp(5),
    "median dim out of range": lambda m: m.ones(3, 4).median(2),
    "cumsum dim out of range": lambda m: m.ones(3, 4).cumsum(-3),
    "softmax dim out of range": lambda m: m.ones(3).softmax(1),
    "sort dim out of range": lambda m: m.ones(3, 4).sort(2),
    "topk dim out of range": lambda m: m.ones(3, 4).topk(1, 2),
    "gather dim out of range": lambda m: m.ones(3, 4).gather(2, m.zeros(1, 1, dtype=m.int64)),
    "index_select dim out of range": lambda m: m.ones(3, 4).index_select(2, m.tensor([0])),
    "select dim out of range": lambda m: m.ones(3, 4).select(2, 0),
    "flip dim out of range": lambda m: m.ones(3, 4).flip(2),
    "amax of a number out of range": lambda m: m.tensor(1.0).amax(1),
    "masked_fill_ on a leaf": lambda m: m.ones(2, requires_grad=True).masked_fill_(
        m.tensor([True, False]), 0.0),
}


@pytest.mark.parametrize("case", ERRORS, ids=list(ERRORS))
def test_errors_match(case):
    same_error(ERRORS[case])


def test_functional_softmax_is_the_tensor_method():
    x = sg.tensor(X, requires_grad=True)
    by_function = sg.nn.functional.softmax(x, dim=1)
    assert type(by_function.grad_fn).__name__ == "SoftmaxBackward0"
    np.testing.assert_array_equal(by_function.detach().numpy(), x.softmax(1).detach().numpy())


def test_each_function_is_its_tensor_method():
    """One implementation: ``sg.prod`` is ``Tensor.prod``."""
    for name in ("prod", "std", "sort", "square", "maximum", "eq", "cumsum", "norm", "where",
                 "all", "argmax", "numel", "t", "clip", "softmax", "mm", "erf"):
        assert getattr(sg, name) is getattr(sg.Tensor, name), name


def _second_order(name):
    def observe(m):
        x = m.tensor(X, dtype=m.float64, requires_grad=True)
        y = m.tensor(Y, dtype=m.float64, requires_grad=True)
        out = OPERATIONS[name](m, x, y)
        outs = out if isinstance(out, tuple) else (out,)
        loss = sum((o * m.tensor(np.cos(np.arange(o.numel())).reshape(tuple(o.shape)),
                                 dtype=o.dtype)).sum() for o in outs)
        gx, gy = m.autograd.grad(loss, [x, y], create_graph=True, allow_unused=True)
        grads = [g for g in (gx, gy) if g is not None and g.requires_grad]
        if not grads:  # (a linear function of the inputs)
            return gx, gy
        curvature = sum((g * g).sum() for g in grads)
        return (gx, gy, *m.autograd.grad(curvature, [x, y], allow_unused=True))

    return observe


@pytest.mark.parametrize("name", OPERATIONS, ids=list(OPERATIONS))
def test_gradients_of_gradients_match(name):
    """``create_graph=True``: the backward pass records its own graph through the same
    rules, so the gradient of a gradient is PyTorch's too."""
    same(_second_order(name), atol=1e-10)


# name: fn(m, x, dim, keepdim), along one dimension (``dim`` None: over every element)
ALONG_A_DIM = {
    "prod": lambda m, x, d, k: x.prod() if d is None else x.prod(d, keepdim=k),
    "std": lambda m, x, d, k: x.std(d, keepdim=k),
    "var biased": lambda m, x, d, k: m.var(x, d, unbiased=False, keepdim=k),
    "norm": lambda m, x, d, k: x.norm(dim=d, keepdim=k),
    "norm p1": lambda m, x, d, k: m.norm(x, 1, d, keepdim=k),
    "logsumexp": lambda m, x, d, k: x.logsumexp(-1 if d is None else d, keepdim=k),
    "amax": lambda m, x, d, k: x.amax(() if d is None else d, keepdim=k),
    "median": lambda m, x, d, k: x.median() if d is None else x.median(d, keepdim=k)[0],
    "cumsum": lambda m, x, d, k: x.cumsum(0 if d is None else d),
    "cumprod": lambda m, x, d, k: m.cumprod(x, 0 if d is None else d),
    "softmax": lambda m, x, d, k: x.softmax(0 if d is None else d),
    "sort": lambda m, x, d, k: x.sort(-1 if d is None else d, descending=k)[0],
    "topk": lambda m, x, d, k: x.topk(2, -1 if d is None else d, largest=k)[0],
}


@settings(max_examples=60, deadline=None)
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=4),
       name=st.sampled_from(sorted(ALONG_A_DIM)), data=st.data())
def test_drawn_shapes_dims_and_keepdims_match(shape, name, data):
    dim = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)))
    keepdim = data.draw(st.booleans())
    size = int(np.prod(shape))
    values = data.draw(st.permutations(range(1, size + 1)))  # distinct: no ties
    x_data = (np.array(values, dtype=np.float64) / size + 0.5).reshape(shape)

    def observe(m):
        x = m.tensor(x_data, requires_grad=True)
        out = ALONG_A_DIM[name](m, x, dim, keepdim)
        (out * m.tensor(np.cos(np.arange(out.numel())).reshape(tuple(out.shape)))).sum(
            ).backward()
        return out, type(out.grad_fn).__name__, x.grad

    same(observe, atol=1e-12)
