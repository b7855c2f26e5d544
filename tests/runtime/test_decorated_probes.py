"""@sg.differentiable probed where a whole-function node can go silently wrong: outputs that
share memory with the function's inputs (a view, the input itself, one array returned
twice). Such an output is a tensor of its own, so writing into it must leave the inputs,
and the gradients that read them, as they were."""

import numpy as np
import pytest

import sourcegrad as sg


@sg.differentiable
def identity(a):
    return a


@sg.differentiable
def first_row(a):
    return a[0]


@sg.differentiable
def doubled_twice(a):
    b = a * 2.0
    return b, b


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_writing_into_an_input_returned_as_is_leaves_the_input_and_its_gradient(dtype):
    x = sg.tensor(np.array([0.5, -0.3], dtype), requires_grad=True)
    h = x * 1.0
    y = identity(h)
    y.mul_(2.0)
    np.testing.assert_array_equal(h.detach().numpy(), np.array([0.5, -0.3], dtype))
    (h * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.array([3.0, 3.0], dtype))
    np.testing.assert_array_equal(y.detach().numpy(), np.array([1.0, -0.6], dtype))


def test_writing_into_a_returned_view_leaves_the_input_and_its_gradient():
    x = sg.tensor(np.array([[0.5, -0.3], [1.0, 2.0]]), requires_grad=True)
    h = x * 1.0
    first_row(h).mul_(2.0)
    (h * h).sum().backward()  # d/dx sum(x**2) = 2x: h is unchanged
    np.testing.assert_allclose(x.grad.numpy(), 2.0 * x.detach().numpy())


def test_a_returned_view_is_a_copy_under_no_grad_too():
    h = sg.tensor(np.array([[0.5, -0.3], [1.0, 2.0]]))
    with sg.no_grad():
        row = first_row(h)
    row.mul_(2.0)
    np.testing.assert_array_equal(h.numpy(), [[0.5, -0.3], [1.0, 2.0]])
    assert h._version == 0


def test_one_array_returned_twice_gives_two_tensors():
    x = sg.tensor(np.array([0.5, -0.3]), requires_grad=True)
    p, q = doubled_twice(x)
    (q * q).sum().backward()  # d/dx sum((2x)**2) = 8x
    np.testing.assert_allclose(x.grad.numpy(), [4.0, -2.4])
    p.add_(10.0)
    np.testing.assert_array_equal(q.detach().numpy(), [1.0, -0.6])
    assert q._version == 0


class Returns(sg.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = sg.nn.Parameter(sg.tensor(np.array([1.0, 2.0])))
        self.frozen = sg.tensor(np.array([3.0, 4.0]))

    @sg.differentiable
    def forward(self, x):
        return self.w * x, self.frozen


def test_a_module_method_returning_its_tensor_does_not_hand_out_its_memory():
    module = Returns()
    x = sg.tensor(np.array([1.0, 1.0]))
    product, frozen = module(x)
    frozen.zero_()
    np.testing.assert_array_equal(module.frozen.numpy(), [3.0, 4.0])
    with sg.no_grad():
        _, frozen = module(x)
    frozen.zero_()
    np.testing.assert_array_equal(module.frozen.numpy(), [3.0, 4.0])


@sg.differentiable
def through_var_positional(a, *rest):
    return np.sum(a * rest[0])


def test_a_tensor_requiring_grad_passed_through_var_positional_is_refused_clearly():
    a = sg.tensor(np.array([0.5, -0.3]), requires_grad=True)
    b = sg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    with pytest.raises(TypeError, match=r"argument 1, which only \*rest receives"):
        through_var_positional(a, b)
    through_var_positional(a, b.detach()).backward()  # a constant there is fine
    np.testing.assert_array_equal(a.grad.numpy(), [1.0, 2.0])


@sg.differentiable
def as_dict(a):
    return {"total": np.sum(a ** 2)}


@sg.differentiable
def nested(a):
    return np.sum(a), (a * 2.0, a * 3.0)


@pytest.mark.parametrize("function", [as_dict, nested])
@pytest.mark.parametrize("grad_mode", [True, False])
def test_outputs_tensors_cannot_be_made_of_are_refused_clearly(function, grad_mode):
    x = sg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    with sg.set_grad_enabled(grad_mode), pytest.raises(TypeError, match="return the arrays"):
        function(x)


@sg.differentiable
def as_list(a):
    return [np.sum(a ** 2), a * 2.0]


@pytest.mark.parametrize("grad_mode", [True, False])
def test_a_list_of_outputs_gives_a_tuple_of_tensors_with_grad_mode_on_or_off(grad_mode):
    x = sg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    with sg.set_grad_enabled(grad_mode):
        total, doubled = as_list(x)
    assert total.shape == () and doubled.shape == (2,)
    assert total.requires_grad is grad_mode


class Frozen(sg.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = sg.nn.Parameter(sg.tensor(np.array([1.0, 2.0])))
        self.frozen = sg.nn.Parameter(sg.tensor(np.array([3.0, 4.0])), requires_grad=False)
        self.register_buffer("scale", sg.tensor(np.array([5.0, 6.0])))
        self.inner = sg.nn.Linear(2, 1)
        self.inner.requires_grad_(False)

    @sg.differentiable
    def forward(self, x):
        return np.sum(self.w * self.frozen * self.scale * x) + np.sum(self.inner.weight * x)


@pytest.mark.parametrize("modify", [
    lambda net: net.frozen.mul_(10.0),
    lambda net: net.scale.mul_(10.0),
    lambda net: net.inner.weight.zero_(),
])
def test_a_frozen_tensor_a_module_method_read_modified_before_backward_is_refused(modify):
    net = Frozen()
    y = net(sg.tensor(np.array([1.0, 1.0])))
    with sg.no_grad():
        modify(net)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_frozen_tensors_left_alone_give_the_gradient():
    net = Frozen()
    y = net(sg.tensor(np.array([1.0, 1.0])))
    net.frozen.detach().numpy()  # (reading is fine)
    y.backward()
    np.testing.assert_array_equal(net.w.grad.numpy(), [15.0, 24.0])
