"""The rest of Tensor side by side with PyTorch (issue 17 section 4): shape methods and
their module functions, arithmetic methods with ``alpha=``, the in-place ``_`` variants,
``randint`` and the other factories, ``autograd.backward``/``grad``'s arguments, node and
accumulation hooks, pickling and deepcopy."""

import copy
import pickle

import numpy as np
import pytest

import sourcegrad as sg

from .parity import error_of, same, same_error

torch = pytest.importorskip("torch")

DATA = np.arange(1.0, 13.0).reshape(3, 4) / 5


def _weights(shape):
    return np.cos(np.arange(float(np.prod(shape)))).reshape(shape)


SHAPE_METHODS = {
    "clone": lambda m, t: t.clone(),
    "expand": lambda m, t: t[:1].expand(2, 3, 4),
    "expand -1": lambda m, t: t[:, :1].expand(-1, 5),
    "expand_as": lambda m, t: t[0].expand_as(t),
    "chunk": lambda m, t: t.chunk(2, dim=1)[1],
    "chunk uneven": lambda m, t: t.chunk(2)[1],
    "split": lambda m, t: t.split(2)[1],
    "split sizes": lambda m, t: t.split([1, 3], dim=1)[1],
    "unbind": lambda m, t: t.unbind(1)[3],
    "narrow": lambda m, t: t.narrow(1, 1, 2),
    "view": lambda m, t: t.view(2, 6),
    "view -1": lambda m, t: t.view(-1, 3),
    "view_as": lambda m, t: t.view_as(t.T),
    "reshape copy": lambda m, t: t.T.reshape(12),
    "repeat": lambda m, t: t.repeat(2, 1, 3),
    "flatten": lambda m, t: t.unsqueeze(0).flatten(),
    "flatten dims": lambda m, t: t.view(3, 2, 2).flatten(1),
    "flatten 1-D": lambda m, t: t[0].flatten(),
    "squeeze": lambda m, t: t[:1].squeeze(),
    "squeeze dim": lambda m, t: t[:, :1].squeeze(1),
    "squeeze a dim not 1": lambda m, t: t.squeeze(0),
    "squeeze dims": lambda m, t: t[:1, :1].squeeze((0, 1)),
    "unsqueeze": lambda m, t: t.unsqueeze(-1),
    "permute": lambda m, t: t.view(3, 2, 2).permute(2, 0, 1),
    "permute tuple": lambda m, t: t.permute((1, 0)),
    "transpose": lambda m, t: t.transpose(0, 1),
    "t": lambda m, t: t.t(),
    "add alpha": lambda m, t: t.add(t * t, alpha=2),
    "sub alpha": lambda m, t: t.sub(t.exp(), alpha=0.5),
    "mul": lambda m, t: t.mul(t),
    "div": lambda m, t: t.div(t + 1),
    "add a number": lambda m, t: t.add(3),
    "module clone": lambda m, t: m.clone(t),
    "module flatten": lambda m, t: m.flatten(t),
    "module squeeze": lambda m, t: m.squeeze(t[:1], 0),
    "module unsqueeze": lambda m, t: m.unsqueeze(t, 1),
    "module permute": lambda m, t: m.permute(t, (1, 0)),
    "module narrow": lambda m, t: m.narrow(t, 0, 1, 2),
    "module chunk": lambda m, t: m.chunk(t, 3)[2],
    "module split": lambda m, t: m.split(t, [3, 1], dim=1)[0],
    "module unbind": lambda m, t: m.unbind(t)[1],
    "module add": lambda m, t: m.add(t, t, alpha=3),
    "module sub": lambda m, t: m.sub(t, 1),
    "module mul": lambda m, t: m.mul(t, 2),
    "module div": lambda m, t: m.div(t, t + 2),
}


@pytest.mark.parametrize("method", SHAPE_METHODS, ids=list(SHAPE_METHODS))
def test_methods_match_in_values_node_names_views_and_gradients(method):
    def observe(m):
        x = m.tensor(DATA, dtype=m.float64, requires_grad=True)
        y = x * 1
        out = SHAPE_METHODS[method](m, y)
        out_weights = m.tensor(_weights(tuple(out.shape)))
        (out * out_weights).sum().backward()
        return (out, type(out.grad_fn).__name__, out._is_view(), out.shape == y.shape,
                x.grad)

    same(observe)


def test_chunks_and_splits_give_the_same_pieces():
    def observe(m):
        t = m.arange(10.0)
        return ([p.shape[0] for p in t.chunk(4)], [p.shape[0] for p in t.chunk(3)],
                [p.shape[0] for p in t.split(4)], [p.shape[0] for p in t.split([2, 8])],
                [p.item() for p in t[:3].unbind()])

    same(observe)


SHAPE_ERRORS = {
    "view across strides": lambda m: m.ones(2, 3).T.view(6),
    "view of a wrong size": lambda m: m.ones(6).view(-1, 4),
    "expand a non-singleton": lambda m: m.ones(2, 3).expand(2, 2, 4),
    "expand -1 in front": lambda m: m.ones(6).expand(-1, 6),
    "split sizes not summing": lambda m: m.ones(5).split([2, 2]),
}


@pytest.mark.parametrize("case", SHAPE_ERRORS, ids=list(SHAPE_ERRORS))
def test_shape_errors_match(case):
    if case == "view of a wrong size":  # (NumPy's words for it)
        assert error_of(lambda: SHAPE_ERRORS[case](sg))[0] is not None
        return
    same_error(SHAPE_ERRORS[case])


@pytest.mark.parametrize("ndim", [0, 1, 3])
def test_T_of_other_than_a_matrix_warns_as_pytorch_does(ndim):
    """(PyTorch warns once per process: its message is compared with the one it gave.)"""
    t = sg.ones(*([2] * ndim)) if ndim else sg.tensor(1.0)
    with pytest.warns(UserWarning) as caught:
        transposed = t.T
    assert transposed.shape == t.shape[::-1]
    expected = ("Tensor.T is deprecated on 0-D tensors. This function is the identity in these "
                "cases.") if ndim == 0 else (
        "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
        "deprecated and it will throw an error in a future release. Consider `x.mT` to "
        "transpose batches of matrices or `x.permute(*sg.arange(x.ndim - 1, -1, -1))` to "
        "reverse the dimensions of a tensor.")
    assert [str(w.message) for w in caught] == [expected]


# ------------------------------------------------------------------------ in-place variants

IN_PLACE = {
    "add_": lambda m, t, w: t.add_(w),
    "add_ alpha": lambda m, t, w: t.add_(w, alpha=-2),
    "sub_": lambda m, t, w: t.sub_(w * w),
    "sub_ alpha": lambda m, t, w: t.sub_(w, alpha=3),
    "mul_": lambda m, t, w: t.mul_(w),
    "div_": lambda m, t, w: t.div_(w * w + 1),
    "pow_": lambda m, t, w: t.pow_(2),
    "pow_ tensor": lambda m, t, w: t.abs_().pow_(w),
    "exp_": lambda m, t, w: t.exp_(),
    "log_": lambda m, t, w: (t * t + 1).log_(),
    "sqrt_": lambda m, t, w: (t * t + 1).sqrt_(),
    "tanh_": lambda m, t, w: t.tanh_(),
    "sigmoid_": lambda m, t, w: t.sigmoid_(),
    "relu_": lambda m, t, w: t.relu_(),
    "abs_": lambda m, t, w: t.abs_(),
    "neg_": lambda m, t, w: t.neg_(),
    "sin_": lambda m, t, w: t.sin_(),
    "cos_": lambda m, t, w: t.cos_(),
    "clamp_": lambda m, t, w: t.clamp_(-0.5, 0.5),
    "clamp_ min": lambda m, t, w: t.clamp_(min=0.0),
    "zero_": lambda m, t, w: t.zero_(),
    "fill_": lambda m, t, w: t.fill_(2.5),
    "copy_": lambda m, t, w: t.copy_(w * 3),
    "copy_ broadcast": lambda m, t, w: t.copy_(w[0]),
    "+=": lambda m, t, w: t.__iadd__(w),
    "*= number": lambda m, t, w: t.__imul__(3.0),
    "**=": lambda m, t, w: t.__ipow__(3),
    "/=": lambda m, t, w: t.__itruediv__(w + 2),
}


@pytest.mark.parametrize("op", IN_PLACE, ids=list(IN_PLACE))
def test_in_place_variants_match(op):
    def observe(m):
        x = m.tensor(DATA - 1, dtype=m.float64, requires_grad=True)
        w = m.tensor(DATA[::-1].copy(), dtype=m.float64, requires_grad=True)
        t = x * 1
        result = IN_PLACE[op](m, t, w)
        name = type(result.grad_fn).__name__
        (result * m.tensor(_weights(result.shape))).sum().backward()
        return result, name, x.grad, w.grad, result._version

    same(observe)


@pytest.mark.parametrize("op", IN_PLACE, ids=list(IN_PLACE))
def test_in_place_variants_without_grad_change_the_array_itself(op):
    def observe(m):
        t = m.tensor(DATA - 1, dtype=m.float64)
        array = t.numpy()
        IN_PLACE[op](m, t, m.tensor(DATA[::-1].copy(), dtype=m.float64))
        return t, m.tensor(array), t._version > 0

    same(observe)


# ------------------------------------------------------------------------ factories


def test_randint_draws_int64_integers_in_range():
    for args, kwargs, low, high, shape in [((5, (2,)), {}, 0, 5, (2,)),
                                           ((3, 10, (4, 3)), {}, 3, 10, (4, 3)),
                                           ((10,), {"size": (50,)}, 0, 10, (50,)),
                                           ((-2, 2), {"size": [3]}, -2, 2, (3,))]:
        drawn = sg.randint(*args, **kwargs)
        reference = torch.randint(*args, **kwargs)
        assert drawn.dtype == sg.int64 and str(reference.dtype) == "torch.int64"
        assert tuple(drawn.shape) == tuple(reference.shape) == shape
        assert drawn.numpy().min() >= low and drawn.numpy().max() < high
    sg.manual_seed(3)
    first = sg.randint(100, (8,)).tolist()
    sg.manual_seed(3)
    assert sg.randint(100, (8,)).tolist() == first


def test_factories_of_shapes_and_likes():
    def observe(m):
        base = m.ones(2, 3, dtype=m.float64)
        return (m.empty(2, 3).shape, m.empty(2, 3).dtype == m.float32,
                m.empty_like(base).shape, m.empty_like(base).dtype == m.float64,
                m.full_like(base, 7.0), m.rand_like(base).shape,
                m.randn_like(base).dtype == m.float64,
                m.zeros(2, requires_grad=True).requires_grad,
                m.full_like(base, 2.0, requires_grad=True).requires_grad)

    same(observe)


# ------------------------------------------------------------------------ autograd.backward


def test_autograd_backward_with_grad_tensors_inputs_and_create_graph():
    def observe(m):
        x = m.tensor(DATA[0], dtype=m.float64, requires_grad=True)
        y = m.tensor(DATA[1], dtype=m.float64, requires_grad=True)
        a, b = x * y, (x * x).sum()
        m.autograd.backward([a, b], grad_tensors=[m.tensor(DATA[2], dtype=m.float64), None],
                            retain_graph=True)
        first = (x.grad.clone(), y.grad.clone())
        m.autograd.backward(b, inputs=y)  # y is not in b: nothing accumulates
        second = y.grad.clone()
        x.grad, y.grad = None, None
        m.autograd.backward((a * a).sum(), inputs=[x], create_graph=True)
        history = x.grad.requires_grad
        (hx,) = m.autograd.grad(x.grad.sum(), y)
        return first, second, history, hx, y.grad

    same(observe)


AUTOGRAD_ERRORS = {
    "empty inputs to backward": lambda m: m.autograd.backward(
        (m.ones(2, requires_grad=True) * 2).sum(), inputs=[]),
    "empty inputs to grad": lambda m: m.autograd.grad(
        (m.ones(2, requires_grad=True) * 2).sum(), []),
    "a tensor without grad among several": lambda m: m.autograd.backward(
        [(m.ones(2, requires_grad=True) * 2).sum(), m.ones(1).sum()]),
    "materialize_grads with allow_unused=False": lambda m: m.autograd.grad(
        (m.ones(2, requires_grad=True) * 2).sum(), m.ones(2, requires_grad=True),
        allow_unused=False, materialize_grads=True),
}


@pytest.mark.parametrize("case", AUTOGRAD_ERRORS, ids=list(AUTOGRAD_ERRORS))
def test_autograd_argument_errors_match(case):
    same_error(AUTOGRAD_ERRORS[case])


def test_materialized_gradients_are_zeros():
    def observe(m):
        x = m.tensor(0.5, requires_grad=True)
        a = m.tensor(1.0, requires_grad=True)
        (dydx,) = m.autograd.grad(x * a, x, create_graph=True)
        (none,) = m.autograd.grad(dydx, x, create_graph=True, allow_unused=True)
        (zero,) = m.autograd.grad(dydx, x, create_graph=True, materialize_grads=True)
        return none is None, zero, zero.requires_grad

    same(observe)


def test_only_the_nodes_leading_to_the_inputs_run():
    """``grad``'s inputs a and b are views of x: x's hook must not fire, x.grad stays None;
    gradients with respect to slices of intermediates, taken in turns from one graph,
    free only what each turn ran."""
    def observe(m):
        x = m.tensor(DATA[:2], requires_grad=True)
        a, b = x.chunk(2)
        fired = []
        x.register_hook(lambda g: fired.append(True))
        ga, gb = m.autograd.grad(a + 2 * b, [a, b], grad_outputs=m.ones(1, 4),
                                 create_graph=True)
        leaves = [m.tensor(DATA[k], requires_grad=True) for k in range(3)]
        middle = [leaf * k + leaf * leaf for k, leaf in enumerate(leaves)]
        loss = sum(v * k for k, v in enumerate(middle)).sum()
        parts = [g for pair in (middle[:2], middle[2:]) for g in m.autograd.grad(loss, pair)]
        m.autograd.backward(middle, parts)
        return ga, gb, fired, x.grad, [leaf.grad for leaf in leaves]

    same(observe)


# ------------------------------------------------------------------------ hooks of nodes


def test_node_hooks_run_in_pytorchs_order():
    def observe(m):
        log = []

        def tensor_hook(g):
            log.append("tensor")
            return g * 3

        def prehook(grads):
            log.append("pre")
            return tuple(g * 2 for g in grads)

        a = m.tensor(1.0, requires_grad=True)
        b = a.clone()
        b.grad_fn.register_prehook(prehook)
        b.register_hook(tensor_hook)
        accumulate = b.grad_fn.next_functions[0][0]
        a.register_hook(tensor_hook)
        accumulate.register_prehook(prehook)
        b.sum().backward(retain_graph=True)
        first = (list(log), a.grad.clone())
        log.clear()
        m.autograd.grad(b.sum(), a, retain_graph=True)
        second = list(log)
        log.clear()
        b.sum().backward(inputs=(b,))
        return first, second, list(log), b.grad

    same(observe)


def test_node_hooks_see_and_replace_gradients_and_can_be_removed():
    def observe(m):
        seen = []
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = a * 2
        b.grad_fn.register_hook(lambda gi, go: seen.append(("post", gi[0], go[0])) or tuple(
            None if g is None else g * 10 for g in gi))
        handle = b.grad_fn.register_prehook(lambda go: seen.append(("pre", go[0])))
        b.grad_fn.register_prehook(lambda go: None)
        b.sum().backward(retain_graph=True)
        handle.remove()
        b.sum().backward()
        wrong = error_of(lambda: _with_posthook_returning(m, lambda gi, go: (gi[0],)))
        return seen, a.grad, wrong

    same(observe)


def _with_posthook_returning(m, hook):
    a = m.ones(2, requires_grad=True)
    b = a * a
    b.grad_fn.register_hook(hook)
    b.sum().backward()


def test_hooks_after_accumulation_run_after_the_gradient_is_in_grad():
    def observe(m):
        p = m.tensor([1.0, -2.0, 0.5], requires_grad=True)
        reference = p.detach().clone()
        p.register_post_accumulate_grad_hook(lambda t: t.sub_(t.grad))  # (returns t: fine)
        p.register_post_accumulate_grad_hook(lambda t: None if t.mul_(4.0) is None else None)
        (p * p).sum().backward()
        return p, reference, p.grad

    same(observe)


ACCUMULATE_HOOK_ERRORS = {
    "on a non-leaf": lambda m: (m.ones(2, requires_grad=True) * 2)
    .register_post_accumulate_grad_hook(print),
    "returning another tensor": lambda m: _accumulate_hook_returning(m, lambda t: t.grad),
    "returning a number": lambda m: _accumulate_hook_returning(m, lambda t: 1),
}


def _accumulate_hook_returning(m, hook):
    p = m.ones(2, requires_grad=True)
    p.register_post_accumulate_grad_hook(hook)
    p.sum().backward()


@pytest.mark.parametrize("case", ACCUMULATE_HOOK_ERRORS, ids=list(ACCUMULATE_HOOK_ERRORS))
def test_accumulation_hook_errors_match(case):
    same_error(ACCUMULATE_HOOK_ERRORS[case])


def test_a_node_called_directly_and_output_nr():
    def observe(m):
        x = m.ones(1, requires_grad=True)
        y = x**2
        pieces = (x * 1).split(1)
        wrong = error_of(lambda: y.grad_fn(x.detach(), x.detach()))
        return y.grad_fn(m.tensor([3.0])).detach(), wrong[0], pieces[0].output_nr, (
            (x * 1).unbind()[0].output_nr)

    same(observe)


# ------------------------------------------------------------------------ pickling, deepcopy


def test_pickling_and_deepcopy_of_leaves():
    def observe(m):
        x = m.tensor([1.5, -2.0], requires_grad=True)
        (x * 3).sum().backward()
        loaded = pickle.loads(pickle.dumps(x))
        copied = copy.deepcopy(x)
        through_history = pickle.loads(pickle.dumps(x * 2))
        plain = pickle.loads(pickle.dumps(m.arange(3)))
        return (loaded, loaded.requires_grad, loaded.grad is None, copied, copied.requires_grad,
                copied.grad, copied.grad is not x.grad, through_history,
                through_history.is_leaf, through_history.requires_grad, plain)

    same(observe)


def test_deepcopy_of_a_tensor_with_history_is_refused():
    same_error(lambda m: copy.deepcopy(m.ones(2, requires_grad=True) * 2))


def test_deepcopy_keeps_shared_tensors_shared_in_a_structure():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    copied = copy.deepcopy({"a": x, "b": [x]})
    assert copied["a"] is copied["b"][0] and copied["a"] is not x
    copied["a"].data[0] = 9.0
    assert x.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("method", ["all", "any"])
@pytest.mark.parametrize("dim, keepdim", [(None, False), (0, False), (1, True)])
def test_all_and_any_match(method, dim, keepdim):
    data = [[True, False, True], [True, True, True]]
    ours, theirs = sg.tensor(data), torch.tensor(data)
    args = () if dim is None else (dim, keepdim)
    got, expected = getattr(ours, method)(*args), getattr(theirs, method)(*args)
    assert got.dtype == np.bool_ and got.tolist() == expected.tolist()
