"""sg.nn.Module probed beside torch.nn.Module: the order of parameters(), state_dict() and
children() after an attribute is replaced (an optimizer's state and a checkpoint follow
it), and ReLU(inplace=True)."""

import copy

import numpy as np
import pytest

from .parity import same

torch = pytest.importorskip("torch")


def _names(module):
    return ([name for name, _ in module.named_parameters()], list(module.state_dict()),
            [name for name, _ in module.named_children()], [n for n, _ in module.named_buffers()])


def test_replacing_a_parameter_keeps_its_place():
    def observe(m):
        layer = m.nn.Linear(2, 3)
        layer.weight = m.nn.Parameter(m.zeros(3, 2))
        return _names(layer)

    same(observe)


def test_tying_a_weight_keeps_the_parameters_order_and_both_gradients():
    def observe(m):
        a, b = m.nn.Linear(2, 2), m.nn.Linear(2, 2)
        b.weight = a.weight
        net = m.nn.Sequential(a, b)
        with m.no_grad():
            for p in net.parameters():
                p.fill_(0.5)
        net(m.tensor([[1.0, 2.0]])).sum().backward()
        return _names(net), [p.grad for p in net.parameters()]

    same(observe)


def test_replacing_a_submodule_and_a_buffer_keeps_their_places():
    def observe(m):
        class Net(m.nn.Module):
            def __init__(self):
                super().__init__()
                self.first = m.nn.Linear(2, 2)
                self.register_buffer("count", m.zeros(1))
                self.second = m.nn.Linear(2, 1)
                self.register_buffer("total", m.zeros(1))

        net = Net()
        net.first = m.nn.Linear(2, 2)
        net.add_module("first", m.nn.Linear(2, 2))
        net.register_buffer("count", m.ones(1))
        net.count = m.ones(1)
        return _names(net)

    same(observe)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_relu_inplace_writes_into_its_input(dtype):
    def observe(m):
        x = m.tensor(np.array([[1.0, -2.0], [-3.0, 4.0]], dtype), requires_grad=True)
        h = x * 1.0
        y = m.nn.ReLU(inplace=True)(h)
        (y * y).sum().backward()
        return h, y is h, x.grad, h._version

    same(observe)


def test_deepcopy_of_a_module_keeps_its_parameters_parameters_without_their_gradients():
    def observe(m):
        layer = m.nn.Linear(2, 2)
        layer(m.tensor([[1.0, 2.0]])).sum().backward()
        twin = copy.deepcopy(layer)
        with m.no_grad():
            twin.weight.add_(1.0)
        return ([type(p).__name__ for p in twin.parameters()], [p.grad for p in twin.parameters()],
                [p.requires_grad for p in twin.parameters()],
                (twin.weight - layer.weight).detach(), layer.bias.grad)

    same(observe)


def test_a_submodule_under_two_names_is_in_state_dict_under_both():
    def observe(m):
        class Net(m.nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = m.nn.Linear(2, 2)
                self.register_buffer("steps", m.zeros(1))
                self.decoder = m.nn.Sequential(m.nn.Linear(2, 2), m.nn.Tanh())
                self.tied = self.encoder

        net = Net()
        state = net.state_dict()
        twin = Net()
        result = twin.load_state_dict({k: v * 0 + 1 for k, v in state.items()})
        return list(state), _names(net), tuple(map(list, result)), twin.tied.weight

    same(observe)
