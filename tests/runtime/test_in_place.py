"""In-place operations as PyTorch records them, side by side with PyTorch: retained
gradients and hooks across versions of a tensor."""

import numpy as np
import pytest

import sourcegrad as sg

from .parity import error_of, same, same_error

torch = pytest.importorskip("torch")

BOTH = pytest.mark.parametrize("m", [torch, sg], ids=["torch", "sg"])


# ------------------------------------------------------------------------ retained gradients

IN_PLACE_OPS = {
    "mul_": lambda m, a, w: a.mul_(2),
    "add_ tensor": lambda m, a, w: a.add_(w),
    "*=": lambda m, a, w: a.__imul__(w),
    "+= scalar": lambda m, a, w: a.__iadd__(3.0),
    "-= tensor": lambda m, a, w: a.__isub__(w * w),
    "/=": lambda m, a, w: a.__itruediv__(4.0),
    "sub_ alpha": lambda m, a, w: a.sub_(w, alpha=0.5),
}


@pytest.mark.parametrize("op", IN_PLACE_OPS, ids=list(IN_PLACE_OPS))
def test_a_retained_gradient_follows_the_tensor_to_its_new_version(op):
    def observe(m):
        w = m.tensor([1.5, -2.0], requires_grad=True)
        a = w * 3
        a.retain_grad()
        IN_PLACE_OPS[op](m, a, w)
        (a * m.tensor([5.0, 7.0])).sum().backward()
        return a.grad, w.grad, a.retains_grad

    same(observe)


@pytest.mark.parametrize("op", IN_PLACE_OPS, ids=list(IN_PLACE_OPS))
def test_retain_grad_after_an_in_place_op_sees_the_new_version(op):
    def observe(m):
        w = m.tensor([1.5, -2.0], requires_grad=True)
        a = w * 3
        IN_PLACE_OPS[op](m, a, w)
        a.retain_grad()
        (a * a).sum().backward()
        return a.grad, w.grad

    same(observe)


def test_a_retained_gradient_through_two_in_place_ops():
    def observe(m):
        w = m.tensor([1.0, 2.0], requires_grad=True)
        a = w.sin()  # (sin saves its input, not its result: it may change in place)
        a.retain_grad()
        a.mul_(3)
        a.add_(w)
        a.pow(2).sum().backward()
        return a.grad, w.grad

    same(observe)


@pytest.mark.parametrize("op", IN_PLACE_OPS, ids=list(IN_PLACE_OPS))
def test_hooks_belong_to_the_version_they_were_registered_on(op):
    def observe(m):
        w = m.tensor([1.5, -2.0], requires_grad=True)
        a = w * 3
        seen = []
        a.register_hook(lambda g: seen.append(("before", g.clone())))
        IN_PLACE_OPS[op](m, a, w)
        a.register_hook(lambda g: seen.append(("after", g.clone())))
        (a * m.tensor([5.0, 7.0])).sum().backward()
        return sorted(seen, key=lambda item: item[0]), w.grad

    same(observe)


def test_a_hook_that_replaces_the_gradient_of_an_old_version():
    def observe(m):
        w = m.tensor([1.0, 2.0], requires_grad=True)
        a = w * 1
        a.register_hook(lambda g: g * 10)
        a.mul_(3)
        a.sum().backward()
        return w.grad

    same(observe)


def test_hooks_on_a_leaf_survive_an_update_under_no_grad():
    def observe(m):
        w = m.tensor([1.0, 2.0], requires_grad=True)
        seen = []
        w.register_hook(lambda g: seen.append(g.clone()))
        with m.no_grad():
            w.mul_(2)
        (w * w).sum().backward()
        return seen, w.grad

    same(observe)


# ------------------------------------------------------------------------ errors


def _modified(make_saved, modify):
    def action(m):
        x = m.tensor([0.5, 1.5, 2.5], requires_grad=True)
        out, saved = make_saved(m, x)
        modify(saved)
        out.sum().backward()

    return action


SAVED_VALUES = {
    "a factor of mul": lambda m, x: (lambda y: (y * x, y))(x * 1),
    "the other factor": lambda m, x: (lambda y: (x * y, y))(x * 2),
    "the base of pow": lambda m, x: (lambda y: (y**2, y))(x + 1),
    "a divisor": lambda m, x: (lambda y: (x / y, y))(x + 1),
    "the output of exp": lambda m, x: (lambda y: (y, y))(x.exp()),
    "the output of tanh": lambda m, x: (lambda y: (y, y))(x.tanh()),
    "the output of sigmoid": lambda m, x: (lambda y: (y, y))(x.sigmoid()),
    "a view read by mul": lambda m, x: (lambda y: (lambda v: (v * v, y))(y[:2]))(x * 1),
    "a view modified": lambda m, x: (lambda y: (lambda v: (v * v, v))(y[1:]))(x * 1),
    "a matmul operand": lambda m, x: (lambda y: ((y @ x).reshape(1), y))(x * 1),
    "an input modified twice": lambda m, x: (lambda y: (y * x, y))(x * 3),
}
MODIFICATIONS = {
    "add_": lambda t: t.add_(1),
    "mul_ twice": lambda t: (t.mul_(2), t.mul_(3)),
    "setitem": lambda t: t.__setitem__(0, 7.0),
    "under no_grad": lambda t: _under_no_grad(t),
    "through detach": lambda t: t.detach().zero_(),
    "through a view": lambda t: t[1:].sub_(1),
}


def _under_no_grad(t):
    with (torch if isinstance(t, torch.Tensor) else sg).no_grad():
        t *= 2


@pytest.mark.parametrize("modify", MODIFICATIONS, ids=list(MODIFICATIONS))
@pytest.mark.parametrize("saved", SAVED_VALUES, ids=list(SAVED_VALUES))
def test_a_saved_value_modified_in_place_fails_at_backward_as_in_pytorch(saved, modify):
    same_error(_modified(SAVED_VALUES[saved], MODIFICATIONS[modify]))


NOT_SAVED = {
    "an addend": lambda m, x: (lambda y: (y + x, y))(x * 2),
    "a subtrahend": lambda m, x: (lambda y: (x - y, y))(x * 2),
    "summed": lambda m, x: (lambda y: (y.sum(), y))(x * 2),
    "averaged": lambda m, x: (lambda y: (y.mean(dim=0), y))(x * 2),
    "negated": lambda m, x: (lambda y: (-y, y))(x * 2),
    "reshaped copy": lambda m, x: (lambda y: (y.clone().reshape(3, 1), y))(x * 2),
    "the factor of a constant": lambda m, x: (lambda y: (y * 3, y))(x * 2),
    "read by exp (its output is saved)": lambda m, x: (lambda y: (y.exp(), y))(x * 2),
}


@pytest.mark.parametrize("modify", ["add_", "setitem", "through a view"])
@pytest.mark.parametrize("case", NOT_SAVED, ids=list(NOT_SAVED))
def test_a_value_no_backward_reads_may_change_in_place(case, modify):
    def observe(m):
        x = m.tensor([0.5, 1.5, 2.5], requires_grad=True)
        out, other = NOT_SAVED[case](m, x)
        MODIFICATIONS[modify](other)
        out.sum().backward()
        return x.grad

    same(observe)


def test_the_version_counter_counts_in_place_changes_of_a_tensor_and_its_views():
    def observe(m):
        x = m.zeros(2, 3)
        v, d = x[0], x.detach()
        counts = [(x._version, v._version, d._version)]
        x.add_(1)
        v.mul_(2)
        d[1, 1] = 5.0
        x[:, 0] = m.tensor([3.0, 4.0])
        counts.append((x._version, v._version, d._version))
        y = x * 2  # a new tensor: its own counter
        counts.append((y._version,))
        return counts, x

    same(observe)


IN_PLACE_REFUSALS = {
    "leaf add_": lambda m: m.ones(3, requires_grad=True).add_(1),
    "leaf +=": lambda m: m.ones(3, requires_grad=True).__iadd__(1),
    "leaf copy_": lambda m: m.ones(3, requires_grad=True).copy_(m.zeros(3)),
    "leaf zero_": lambda m: m.ones(3, requires_grad=True).zero_(),
    "leaf index assignment": lambda m: m.ones(3, requires_grad=True).__setitem__([0], 2.0),
    "view of a leaf": lambda m: m.ones(3, requires_grad=True).view(3).add_(1),
    "element of a leaf": lambda m: m.ones(3, requires_grad=True).__setitem__(0, 2.0),
    "slice of a leaf": lambda m: m.ones(3, requires_grad=True)[1:].mul_(2),
    "transpose of a leaf": lambda m: m.ones(2, 3, requires_grad=True).T.exp_(),
    "unbind output": lambda m: (m.ones(3, requires_grad=True) * 1).unbind(0)[1].mul_(2),
    "split output": lambda m: (m.ones(4, requires_grad=True) * 1).split(2)[1].add_(1),
    "chunk output": lambda m: (m.ones(4, requires_grad=True) * 1).chunk(2)[0].zero_(),
    "split with sizes": lambda m: (m.ones(4, requires_grad=True) * 1).split([1, 3])[1].neg_(),
    "no_grad view": lambda m: _no_grad_view_modified(m),
    "expanded view": lambda m: (m.ones(1, requires_grad=True) * 1).expand(3).add_(1),
    "partly overlapping input": lambda m: (lambda y: y[1:].mul_(y[:2]))(
        m.ones(3, requires_grad=True) * 2),
    "shape": lambda m: (m.ones(1, requires_grad=True) * 1).add_(m.ones(3)),
    "dtype": lambda m: m.ones(3, dtype=m.int64).add_(1.5),
    "integer division": lambda m: m.ones(3, dtype=m.int64).div_(2),
}


def _no_grad_view_modified(m):
    y = m.ones(3, requires_grad=True) * 1
    with m.no_grad():
        v = y[:2]
    v.mul_(2)


@pytest.mark.parametrize("case", IN_PLACE_REFUSALS, ids=list(IN_PLACE_REFUSALS))
def test_in_place_refusals_match(case):
    same_error(IN_PLACE_REFUSALS[case])


def test_what_is_refused_with_grad_is_allowed_without():
    def observe(m):
        x = m.ones(3, requires_grad=True)
        with m.no_grad():
            x.view(3).add_(1)
            x[0] = 5.0
            y = x * 1
            y.unbind(0)[1].mul_(4)
        plain = m.ones(4)
        plain.split(2)[1].add_(1)
        return x, y, plain, x.requires_grad, x.is_leaf

    same(observe)


# ------------------------------------------------------------------------ second backward

ONE_OP = {
    "select": lambda x: x[0], "index": lambda x: x[[0, 1]], "sum": lambda x: x.sum(),
    "sum dim": lambda x: x.sum(0), "mean": lambda x: x.mean(), "neg": lambda x: -x,
    "view": lambda x: x.view(3, 1), "sub": lambda x: x - 1, "rsub": lambda x: 1 - x,
    "div": lambda x: x / 2, "mul by a number": lambda x: x * 2, "add": lambda x: x + x,
    "sub tensors": lambda x: x - x, "double": lambda x: x.double(),
    "clone": lambda x: x.clone(), "relu": lambda x: x.relu(),
    "expand": lambda x: x.expand(2, 3), "unsqueeze": lambda x: x.unsqueeze(0),
    "sigmoid": lambda x: x.sigmoid(), "abs": lambda x: x.abs(), "max": lambda x: x.max(),
    "dot": lambda x: x @ x, "T": lambda x: x.view(3, 1).T,
    "transpose": lambda x: x.view(3, 1).transpose(0, 1), "slice": lambda x: x[1:],
    "squeeze": lambda x: x.view(3, 1).squeeze(), "reshape": lambda x: x.reshape(1, 3),
    "pow": lambda x: x**2, "exp": lambda x: x.exp(), "add a number": lambda x: x + 2,
    "clamp": lambda x: x.clamp(0, 1), "tanh": lambda x: x.tanh(), "log": lambda x: x.log(),
    "chunk": lambda x: x.chunk(3)[0], "split": lambda x: x.split(1)[0],
    "unbind": lambda x: x.unbind()[0], "narrow": lambda x: x.narrow(0, 0, 2),
    "repeat": lambda x: x.repeat(2), "flatten": lambda x: x.view(3, 1).flatten(),
    "permute": lambda x: x.view(3, 1).permute(1, 0),
}


@pytest.mark.parametrize("op", ONE_OP, ids=list(ONE_OP))
def test_a_second_backward_fails_only_where_a_saved_tensor_was_freed(op):
    def observe(m):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = ONE_OP[op](x).sum()
        y.backward()
        second = error_of(y.backward)
        return second is None, x.grad

    same(observe)


# NumPy's functions on sourcegrad's tensors, and PyTorch's own (``(torch, numpy)``): what
# the rule's VJP reads by value is saved, what it reads for its shape only is not
# (``runtime/reads.py``). (PyTorch also saves the input of an FFT of real values and of
# reflect and replicate padding, although their derivatives need only its shape;
# sourcegrad keeps only the shape there, so a second backward works.)
M3 = np.array([[2.0, 1.0, 0.0], [0.0, 3.0, 1.0], [1.0, 0.0, 4.0]])
NUMPY_ONE_OP = {
    "sign": (torch.sign, np.sign),
    "diff": (torch.diff, np.diff),
    "pad": (lambda x: torch.nn.functional.pad(x, (1, 2)), lambda x: np.pad(x, (1, 2))),
    "flip": (lambda x: x.flip(0), np.flip),
    "roll": (lambda x: x.roll(1), lambda x: np.roll(x, 1)),
    "cumsum": (lambda x: x.cumsum(0), np.cumsum),
    "tile": (lambda x: x.tile(2), lambda x: np.tile(x, 2)),
    "repeat": (lambda x: x.repeat_interleave(2), lambda x: np.repeat(x, 2)),
    "diag": (torch.diag, np.diag),
    "atleast_2d": (torch.atleast_2d, np.atleast_2d),
    "stack": (lambda x: torch.stack([x, x]), lambda x: np.stack([x, x])),
    "concatenate": (lambda x: torch.cat([x, x]), lambda x: np.concatenate([x, x])),
    "take": (lambda x: x[[2, 0]], lambda x: np.take(x, [2, 0])),
    "dot": (lambda x: torch.dot(x, x), lambda x: np.dot(x, x)),
    "dot by a constant": (lambda x: torch.dot(x, torch.ones(3, dtype=torch.float64)),
                          lambda x: np.dot(x, np.ones(3))),
    "matmul": (lambda x: x @ torch.ones((3, 2), dtype=torch.float64),
               lambda x: x @ np.ones((3, 2))),
    "inner": (lambda x: torch.inner(x, x), lambda x: np.inner(x, x)),
    "tensordot": (lambda x: torch.tensordot(x, x, dims=1),
                  lambda x: np.tensordot(x, x, axes=1)),
    "outer": (lambda x: torch.outer(x, x), lambda x: np.outer(x, x)),
    "cross": (lambda x: torch.linalg.cross(x, x.flip(0)), lambda x: np.cross(x, np.flip(x))),
    "solve": (lambda x: torch.linalg.solve(torch.tensor(M3), x),
              lambda x: np.linalg.solve(M3, x)),
    "kron": (lambda x: torch.kron(x, x), lambda x: np.kron(x, x)),
    "prod": (lambda x: x.prod(), np.prod),
    "var": (lambda x: x.var(unbiased=False), np.var),
    "cumprod": (lambda x: x.cumprod(0), np.cumprod),
    "trace": (lambda x: torch.trace(torch.outer(x, x)), lambda x: np.trace(np.outer(x, x))),
}


@pytest.mark.parametrize("op", NUMPY_ONE_OP, ids=list(NUMPY_ONE_OP))
def test_a_second_backward_through_numpy_fails_only_where_pytorch_saved_a_tensor(op):
    def observe(m):
        x = m.tensor([1.0, 2.0, 3.0], dtype=m.float64, requires_grad=True)
        y = NUMPY_ONE_OP[op][m is sg](x).sum()
        y.backward()
        second = error_of(y.backward)
        return second is None, x.grad

    same(observe)


def test_a_second_backward_through_an_addition_accumulates_again():
    def observe(m):
        b = m.tensor([1.0, 2.0], requires_grad=True)
        c = b + 1
        g = m.tensor([3.0, 4.0])
        c.backward(g)
        c.backward(g)
        return b.grad

    same(observe)


# ------------------------------------------------------------------------ numpy()


@BOTH
def test_numpy_of_a_tensor_requiring_grad_is_given_under_no_grad(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    with m.no_grad():
        assert x.numpy().tolist() == [1.0, 2.0] and y.numpy().tolist() == [2.0, 4.0]
        x.numpy()[0] = 5.0  # the tensor's own memory
    assert x.detach().numpy().tolist() == [5.0, 2.0]
    with pytest.raises(RuntimeError, match="^Can't call numpy"):
        y.numpy()


def test_numpy_writing_into_a_tensor_counts_as_an_in_place_change():
    x = sg.ones(3, requires_grad=True)
    y = x.exp()
    with sg.no_grad():
        returned = np.multiply(y, 2.0, out=y)
        np.add.at(y, [0, 0], 1.0)
    assert returned is y and y._version == 2
    assert y.tolist() == pytest.approx([2 * np.e + 2, 2 * np.e, 2 * np.e])
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
    with pytest.raises(NotImplementedError, match="out="):
        np.multiply(x, 2.0, out=sg.zeros(3))
