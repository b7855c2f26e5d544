"""The backward engine: depth, accumulation in place, freed graphs, hooks, retained
gradients, ``gradient=`` checks, ``autograd.grad`` and thread-local grad mode."""

import sys
import threading
import warnings

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.errors import NoDerivativeError
from sourcegrad.rules import registry
from sourcegrad.runtime import graph


def test_a_chain_of_100000_nodes_needs_no_recursion():
    x = sg.tensor(1.0, dtype=sg.float64, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # far below the depth: any recursion would fail
    try:
        y.backward()
    finally:
        sys.setrecursionlimit(limit)
    assert x.grad.item() == 1.0


def test_accumulation_updates_the_same_array_in_place():
    w = sg.ones(3, requires_grad=True)
    (w * 2).sum().backward()
    grad_tensor, grad_array = w.grad, w.grad.data
    (w * 3).sum().backward()
    assert w.grad is grad_tensor and w.grad.data is grad_array
    np.testing.assert_array_equal(grad_array, [5.0, 5.0, 5.0])


def test_a_leaf_reached_twice_gets_the_sum():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    (x * x + x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 5.0])


def test_second_backward_without_retain_graph_fails_and_with_it_succeeds():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 8.0])
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second"):
        y.backward()


def test_saved_values_are_released_after_backward():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    node = y.grad_fn
    y.sum().backward()
    assert node._backward is None


def test_backward_on_a_vector_needs_a_gradient():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar"):
        (x * 2).backward()


def test_gradient_shape_is_checked():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as error:
        (x * 2).backward(sg.ones(3))
    assert str(error.value) == ("Mismatch in shape: grad_output[0] has a shape of "
                                "sg.Size([3]) and output[0] has a shape of sg.Size([2]).")


def test_backward_on_a_tensor_without_history_fails():
    with pytest.raises(RuntimeError, match="^element 0 of tensors does not require grad"):
        sg.ones(2).sum().backward()


def test_non_leaf_grad_is_none_with_a_warning_unless_retained():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = x * 3
    z.retain_grad()
    (y * z).sum().backward()
    with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
        assert y.grad is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(z.grad.numpy(), y.detach().numpy())


def test_hooks_see_and_can_replace_gradients():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    seen = []
    y.register_hook(lambda g: seen.append(g.numpy().copy()))
    x.register_hook(lambda g: g * 10)
    (y * y).sum().backward()
    np.testing.assert_array_equal(seen[0], 2 * y.detach().numpy())
    np.testing.assert_array_equal(x.grad.numpy(), 10 * 3 * 2 * y.detach().numpy())


def test_removed_hook_does_not_run():
    x = sg.tensor([1.0], requires_grad=True)
    handle = x.register_hook(lambda g: g * 0)
    handle.remove()
    (x * 2).sum().backward()
    assert x.grad.item() == 2.0


def test_autograd_grad_returns_without_accumulating():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    w = sg.tensor([3.0, 4.0], requires_grad=True)
    y = (x * w).sum()
    gx, gw = sg.autograd.grad(y, [x, w])
    np.testing.assert_array_equal(gx.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(gw.numpy(), [1.0, 2.0])
    assert x.grad is None and w.grad is None


def test_autograd_grad_of_a_non_leaf_and_with_grad_outputs():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    h = x * x
    y = h * 3
    (gh,) = sg.autograd.grad(y, h, grad_outputs=sg.tensor([1.0, 2.0]))
    np.testing.assert_array_equal(gh.numpy(), [3.0, 6.0])


def test_autograd_grad_unused_input():
    x = sg.tensor([1.0], requires_grad=True)
    unused = sg.tensor([1.0], requires_grad=True)
    y = (x * 2).sum()
    with pytest.raises(RuntimeError) as error:
        sg.autograd.grad(y, [x, unused], retain_graph=True)
    assert str(error.value) == (
        "The differentiated Tensor at index 1 appears to not have been used in the graph. "
        "Set allow_unused=True if this is the desired behavior.")
    gx, gu = sg.autograd.grad(y, [x, unused], allow_unused=True)
    assert gx.item() == 2.0 and gu is None


def test_autograd_grad_input_must_require_grad():
    x = sg.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^One of the differentiated Tensors does not"):
        sg.autograd.grad((x * 2).sum(), [sg.ones(1)])


def test_no_grad_is_thread_local():
    results = {}
    inside = threading.Event()
    release = threading.Event()

    def other_thread():
        inside.wait()
        x = sg.ones(1, requires_grad=True)
        results["enabled"] = sg.is_grad_enabled()
        results["recorded"] = (x * 2).requires_grad
        release.set()

    thread = threading.Thread(target=other_thread)
    thread.start()
    with sg.no_grad():
        inside.set()
        release.wait(5)
        assert not sg.is_grad_enabled()
    thread.join()
    assert results == {"enabled": True, "recorded": True}


def test_a_thread_that_ends_without_grad_stops_no_other_from_recording():
    """Operations skip asking the thread for its grad mode while no thread has it off: a
    thread that turned it off, and ended so, must neither stop this thread recording nor
    keep ``no_grad`` from working here."""
    x = sg.ones(2, requires_grad=True)
    thread = threading.Thread(target=sg.set_grad_enabled, args=(False,))
    thread.start()
    thread.join()
    assert sg.is_grad_enabled()
    assert all(out.requires_grad for out in (x.tanh(), x * 2.0, 2.0 - x, x.sum(0, True)))
    with sg.no_grad():
        assert not sg.is_grad_enabled()
        assert not any(out.requires_grad for out in (x.tanh(), x * 2.0, x.sum(0, True)))
    assert (x * 2.0).requires_grad


def test_grad_mode_context_managers_and_decorators():
    x = sg.ones(1, requires_grad=True)

    @sg.no_grad()
    def untracked():
        return x * 2

    @sg.enable_grad()
    def tracked():
        return x * 2

    assert not untracked().requires_grad
    with sg.no_grad():
        assert tracked().requires_grad
        with sg.enable_grad():
            assert sg.is_grad_enabled()
        assert not sg.is_grad_enabled()
    with sg.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert sg.is_grad_enabled()
    sg.set_grad_enabled(False)
    try:
        assert not sg.is_grad_enabled()
    finally:
        sg.set_grad_enabled(True)


def test_next_functions_and_accumulate_grad():
    a = sg.tensor([1.0], requires_grad=True)
    b = sg.tensor([2.0])
    y = a * b
    (acc, nr), (none, _) = y.grad_fn.next_functions
    assert isinstance(acc, graph.AccumulateGrad) and acc.variable is a and nr == 0
    assert none is None
    assert repr(y.grad_fn).startswith("<MulBackward0 object at 0x")


def test_record_makes_one_node_with_a_custom_backward():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    c = sg.tensor([5.0, 7.0])

    def backward(grads):
        (g_sum, g_prod) = grads
        g_x = (0 if g_sum is None else g_sum) + (0 if g_prod is None else g_prod * c.data)
        return (g_x, None)

    total, product = graph.record("PairBackward", [x, c], [x.data + c.data, x.data * c.data],
                                  backward)
    assert type(total.grad_fn).__name__ == "PairBackward" and product.grad_fn is total.grad_fn
    product.sum().backward()  # only the second output receives a gradient
    np.testing.assert_array_equal(x.grad.numpy(), [5.0, 7.0])


def test_record_without_grad_records_nothing():
    x = sg.tensor([1.0], requires_grad=True)
    with sg.no_grad():
        out = graph.record("NopBackward", [x], x.data * 2, lambda g: g)
    assert out.grad_fn is None and not out.requires_grad


def test_a_wrong_cotangent_shape_is_reported():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    out = graph.record("BadBackward", [x], x.data * 2, lambda grads: (np.ones(3),))
    with pytest.raises(RuntimeError, match="BadBackward returned a gradient of shape"):
        out.sum().backward()


def _slots(obj):
    return [name for cls in type(obj).__mro__ for name in getattr(cls, "__slots__", ())
            if name != "__weakref__"]


def test_recorded_nodes_and_their_outputs_have_every_attribute():
    """Nodes of primitives and their output tensors are made without ``__init__`` (the
    per-operation path): no attribute may be left unset."""
    x = sg.tensor(np.ones(2), requires_grad=True)
    w = sg.tensor(np.ones(2))
    for out in (x * 2.0, x * w, x.tanh(), np.concatenate([x, w])):
        for obj in (out, out.grad_fn):
            for name in _slots(obj):
                getattr(obj, name)  # AttributeError if left unset


def test_a_rule_removed_is_not_used_by_the_operators_that_prepared_it():
    x = sg.tensor(np.array([0.5, 1.0]), requires_grad=True)
    x.tanh().sum().backward()
    original = registry.RULES.pop(np.tanh)
    try:
        with pytest.raises(NoDerivativeError, match="np.tanh has no derivative rule"):
            x.tanh()
    finally:
        registry.RULES[np.tanh] = original
    assert x.tanh().grad_fn is not None


def test_a_wrong_number_of_cotangents_is_reported():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    out = graph.record("BadBackward", [x], x.data * 2, lambda grads: (grads[0], grads[0]))
    with pytest.raises(RuntimeError, match="^BadBackward returned 2 gradients for 1 inputs$"):
        out.sum().backward()


def test_a_rule_registered_again_replaces_the_one_operators_prepared():
    """Tensor methods prepare each primitive's VJPs once (dispatch.Op): a rule registered
    again for the primitive must still be the one that runs."""
    x = sg.tensor(np.array([0.5, 1.0]), requires_grad=True)
    x.tanh().sum().backward()
    original = registry.RULES[np.tanh]
    try:
        @registry.rule(np.tanh)
        class tanh:
            def vjp_x(g, ans, x):
                return g * 3.0

        x.grad = None
        x.tanh().sum().backward()
        np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])
    finally:
        registry.RULES[np.tanh] = original
    x.grad = None
    x.tanh().sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 1 - np.tanh([0.5, 1.0]) ** 2, rtol=1e-15)


def test_a_saved_input_modified_in_place_is_reported():
    x = sg.ones(2, requires_grad=True)
    c = sg.ones(2)
    y = (x * c).sum()
    c.mul_(2)
    with pytest.raises(RuntimeError) as error:
        y.backward()
    assert str(error.value) == (
        "one of the variables needed for gradient computation has been modified by an "
        "inplace operation: [sg.float32 [2]] is at version 1; expected version 0 instead.")


def test_a_saved_output_modified_in_place_is_reported():
    x = sg.ones(2, requires_grad=True)
    y = x.exp()
    with sg.no_grad():
        y += 1
    with pytest.raises(RuntimeError, match=r"\[sg.float32 \[2\]\], which is output 0 of Exp,"):
        y.sum().backward()


def test_an_optimizer_step_between_forward_and_backward_is_reported():
    w = sg.ones(2, requires_grad=True)
    w.grad = sg.ones(2)
    loss = (w * w).sum()
    sg.optim.SGD([w], lr=0.1).step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_no_grad_decorates_without_parentheses():
    x = sg.ones(1, requires_grad=True)

    @sg.no_grad
    def double(t):
        return t * 2

    assert not double(x).requires_grad and sg.is_grad_enabled()


def test_backward_into_chosen_inputs_only():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    w = sg.tensor([3.0, 4.0], requires_grad=True)
    (x * w).sum().backward(inputs=[w])
    assert x.grad is None and w.grad.tolist() == [1.0, 2.0]
