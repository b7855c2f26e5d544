"""``sg.nn.Module`` and its layers, losses, clipping, ``sg.cat``/``sg.stack``, optimizers'
checks and learning-rate schedulers, side by side with PyTorch 2.13: the same weights give
the same outputs, gradients, node names, printed forms and messages."""

import math
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import sourcegrad as sg

torch = pytest.importorskip("torch")


def as_sg_text(text):
    return text.replace("torch.", "sg.")


def copy_into_torch(module, torch_module):
    """Give the torch module the sourcegrad module's values (same names, same shapes)."""
    state = {k: torch.from_numpy(np.array(v.data)) for k, v in module.state_dict().items()}
    torch_module.load_state_dict(state)


def both_mlp(activation="ReLU", bias=True):
    sg.manual_seed(3)
    ours = sg.nn.Sequential(sg.nn.Linear(3, 5, bias=bias), getattr(sg.nn, activation)(),
                            sg.nn.Linear(5, 2, bias=bias))
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 5, bias=bias),
                                 getattr(torch.nn, activation)(),
                                 torch.nn.Linear(5, 2, bias=bias))
    copy_into_torch(ours, theirs)
    return ours, theirs


def assert_same_gradients(ours, theirs):
    mine = dict(ours.named_parameters())
    for name, param in theirs.named_parameters():
        np.testing.assert_allclose(mine[name].grad.numpy(), param.grad.numpy(), rtol=1e-5,
                                   atol=1e-6, err_msg=name)


# ----------------------------------------------------------------------------- structure
def test_names_order_and_printing_match():
    ours, theirs = both_mlp()
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)
    assert repr(sg.nn.Linear(3, 2, bias=False)) == repr(torch.nn.Linear(3, 2, bias=False))
    for name in ("Tanh", "Sigmoid", "ReLU", "MSELoss", "CrossEntropyLoss",
                 "BCEWithLogitsLoss"):
        assert repr(getattr(sg.nn, name)()) == repr(getattr(torch.nn, name)())
    assert repr(ours[0:2]) == repr(theirs[0:2])
    assert len(ours) == len(theirs) == 3
    assert [type(m).__name__ for m in ours.children()] == \
        [type(m).__name__ for m in theirs.children()]
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]


def test_a_parameter_prints_and_behaves_as_a_leaf_tensor():
    p = sg.nn.Parameter(sg.tensor([1.0, 2.0]))
    q = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    assert repr(p) == repr(q)
    assert p.is_leaf and p.requires_grad and isinstance(p, sg.Tensor)
    doubled = p * 2
    assert type(doubled) is sg.Tensor and repr(doubled) == repr(q * 2)


def test_submodules_parameters_and_buffers_are_found_from_attributes():
    class Model(sg.nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = sg.nn.Linear(4, 3)
            self.scale = sg.nn.Parameter(sg.ones(3))
            self.register_buffer("running", sg.zeros(3))
            self.head = sg.nn.Sequential(sg.nn.Tanh(), sg.nn.Linear(3, 1))
            self.plain = 7

        def forward(self, x):
            return self.head(self.encoder(x) * self.scale + self.running)

    class TorchModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = torch.nn.Linear(4, 3)
            self.scale = torch.nn.Parameter(torch.ones(3))
            self.register_buffer("running", torch.zeros(3))
            self.head = torch.nn.Sequential(torch.nn.Tanh(), torch.nn.Linear(3, 1))
            self.plain = 7

        def forward(self, x):
            return self.head(self.encoder(x) * self.scale + self.running)

    ours, theirs = Model(), TorchModel()
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    copy_into_torch(ours, theirs)
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)
    out, expected = ours(sg.tensor(x)), theirs(torch.tensor(x))
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-6)
    out.sum().backward()
    expected.sum().backward()
    assert_same_gradients(ours, theirs)
    assert ours.plain == 7 and "plain" not in dict(ours.named_parameters())


@pytest.mark.parametrize("activation", ["ReLU", "Tanh", "Sigmoid"])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape", [(4, 3), (3,), (2, 4, 3)])
def test_forward_backward_and_node_names_match(activation, bias, shape):
    ours, theirs = both_mlp(activation, bias)
    x = np.cos(np.arange(math.prod(shape), dtype=np.float32)).reshape(shape)
    out, expected = ours(sg.tensor(x)), theirs(torch.tensor(x))
    assert type(out.grad_fn).__name__ == type(expected.grad_fn).__name__
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-5,
                               atol=1e-6)
    (out ** 2).sum().backward()
    (expected ** 2).sum().backward()
    assert_same_gradients(ours, theirs)


def test_linear_initialisation_is_kaiming_uniform_within_one_over_sqrt_fan_in():
    sg.manual_seed(0)
    layer = sg.nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    for values in (layer.weight.detach().numpy(), layer.bias.detach().numpy()):
        assert values.dtype == np.float32
        assert values.min() >= -bound and values.max() <= bound
        # uniform over the interval: the extremes come close to the bound, the mean to 0
        assert values.max() > 0.95 * bound and values.min() < -0.95 * bound
    assert abs(layer.weight.detach().numpy().std() - bound / math.sqrt(3)) < 0.01 * bound


@pytest.mark.parametrize("name, target", [
    ("MSELoss", np.array([[0.5, -1.0], [2.0, 0.0], [1.0, 1.0], [0.0, 0.25]], np.float32)),
    ("BCEWithLogitsLoss", np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]],
                                   np.float32)),
    ("CrossEntropyLoss", np.array([1, 0, 1, 1])),
])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_losses_match(name, target, reduction):
    ours, theirs = both_mlp()
    x = np.sin(np.arange(12, dtype=np.float32)).reshape(4, 3)
    loss = getattr(sg.nn, name)(reduction=reduction)(ours(sg.tensor(x)), sg.tensor(target))
    expected = getattr(torch.nn, name)(reduction=reduction)(theirs(torch.tensor(x)),
                                                              torch.tensor(target))
    assert type(loss.grad_fn).__name__ == type(expected.grad_fn).__name__
    np.testing.assert_allclose(loss.item(), expected.item(), rtol=1e-5)
    loss.backward()
    expected.backward()
    assert_same_gradients(ours, theirs)


# ----------------------------------------------------------------------------- state
def test_state_dict_detaches_and_shares_the_arrays():
    ours, theirs = both_mlp()
    state, torch_state = ours.state_dict(), theirs.state_dict()
    assert type(state) is type(torch_state) is OrderedDict
    value = state["0.bias"]
    assert not value.requires_grad and value.grad_fn is None
    value.data[0] = 42.0  # shares memory with the parameter, as in PyTorch
    assert ours[0].bias.data[0] == 42.0


def test_load_state_dict_copies_values_and_reports_keys():
    ours, _ = both_mlp()
    other, _ = both_mlp()
    for p in other.parameters():
        p.data[...] = 0.5
    assert ours.load_state_dict(other.state_dict()) == ([], [])
    assert all(np.all(p.detach().numpy() == 0.5) for p in ours.parameters())
    partial = {k: v for k, v in other.state_dict().items() if k != "2.bias"}
    result = ours.load_state_dict(partial, strict=False)
    assert type(result).__name__ == "_IncompatibleKeys"
    assert result.missing_keys == ["2.bias"] and result.unexpected_keys == []


def error_of(call):
    try:
        call()
    except Exception as exc:  # noqa: BLE001  (the test compares whatever is raised)
        return type(exc), as_sg_text(str(exc))
    raise AssertionError("no error raised")


def test_load_state_dict_errors_match():
    ours, theirs = both_mlp()
    state = {k: v.detach().numpy().copy() for k, v in theirs.state_dict().items()}
    missing = {"0.weight": state["0.weight"]}
    assert error_of(lambda: ours.load_state_dict(missing)) == error_of(
        lambda: theirs.load_state_dict({k: torch.from_numpy(v) for k, v in missing.items()}))
    wrong = {**state, "0.weight": np.zeros((6, 3), np.float32), "extra": np.zeros(1)}
    assert error_of(lambda: ours.load_state_dict(wrong)) == error_of(
        lambda: theirs.load_state_dict({k: torch.from_numpy(v) for k, v in wrong.items()}))


def test_attribute_errors_match():
    ours, theirs = both_mlp()

    def assign(module):
        module[0].weight = 3

    assert error_of(lambda: assign(ours)) == error_of(lambda: assign(theirs))
    assert error_of(lambda: ours.missing) == error_of(lambda: theirs.missing)


def test_train_eval_and_zero_grad():
    ours, _ = both_mlp()
    assert ours.training and ours.eval() is ours
    assert not any(m.training for m in ours.modules())
    assert all(m.training for m in ours.train().modules())
    ours(sg.ones(2, 3)).sum().backward()
    assert all(p.grad is not None for p in ours.parameters())
    ours.zero_grad(set_to_none=False)
    assert all(np.all(p.grad.numpy() == 0) for p in ours.parameters())
    ours.zero_grad()
    assert all(p.grad is None for p in ours.parameters())


# ----------------------------------------------------------------------------- utilities
@pytest.mark.parametrize("norm_type", [2.0, 1.0, math.inf, 3.0])
@pytest.mark.parametrize("max_norm", [0.1, 1e3])
def test_clip_grad_norm_matches(norm_type, max_norm):
    ours, theirs = both_mlp()
    x = np.sin(np.arange(12, dtype=np.float32)).reshape(4, 3)
    (ours(sg.tensor(x)) ** 2).sum().backward()
    (theirs(torch.tensor(x)) ** 2).sum().backward()
    total = sg.nn.utils.clip_grad_norm_(ours.parameters(), max_norm, norm_type)
    expected = torch.nn.utils.clip_grad_norm_(theirs.parameters(), max_norm, norm_type)
    assert isinstance(total, sg.Tensor)
    np.testing.assert_allclose(total.item(), expected.item(), rtol=1e-5)
    assert_same_gradients(ours, theirs)


def test_clip_grad_norm_refuses_a_non_finite_norm_when_asked():
    p, q = sg.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
    p.grad, q.grad = sg.tensor([math.inf, 1.0]), torch.tensor([math.inf, 1.0])
    assert error_of(lambda: sg.nn.utils.clip_grad_norm_(p, 1.0, error_if_nonfinite=True)) == \
        error_of(lambda: torch.nn.utils.clip_grad_norm_(q, 1.0, error_if_nonfinite=True))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cat_and_stack_match(dim):
    data = [np.arange(6.0, dtype=np.float32).reshape(2, 3) + i for i in range(3)]
    ours = [sg.tensor(d, requires_grad=True) for d in data]
    theirs = [torch.tensor(d, requires_grad=True) for d in data]
    weights = None
    for ours_fn, torch_fn in ((sg.cat, torch.cat), (sg.stack, torch.stack)):
        out, expected = ours_fn(ours, dim=dim), torch_fn(theirs, dim=dim)
        assert type(out.grad_fn).__name__ == type(expected.grad_fn).__name__
        np.testing.assert_array_equal(out.detach().numpy(), expected.detach().numpy())
        weights = np.cos(np.arange(out.numel(), dtype=np.float32)).reshape(out.shape)
        (out * sg.tensor(weights)).sum().backward()
        (expected * torch.tensor(weights)).sum().backward()
    for mine, reference in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(mine.grad.numpy(), reference.grad.numpy(), rtol=1e-6)


# ----------------------------------------------------------------------------- optimizers
def test_optimizers_refuse_what_is_not_a_tensor_as_pytorch_does():
    for ours_opt, torch_opt in ((sg.optim.SGD, torch.optim.SGD),
                                (sg.optim.Adam, torch.optim.Adam)):
        assert error_of(lambda o=ours_opt: o([1.0], lr=0.1)) == \
            error_of(lambda o=torch_opt: o([1.0], lr=0.1))
        assert error_of(lambda o=ours_opt: o(sg.ones(2, requires_grad=True), lr=0.1)) == \
            error_of(lambda o=torch_opt: o(torch.ones(2, requires_grad=True), lr=0.1))
        assert error_of(lambda o=ours_opt: o([sg.ones(2, requires_grad=True) * 2], lr=0.1)) \
            == error_of(lambda o=torch_opt: o([torch.ones(2, requires_grad=True) * 2], lr=0.1))


SCHEDULERS = [
    ("StepLR", dict(step_size=3, gamma=0.5)),
    ("ExponentialLR", dict(gamma=0.9)),
    ("CosineAnnealingLR", dict(T_max=4, eta_min=0.01)),
    ("CosineAnnealingLR", dict(T_max=5)),
]


@pytest.mark.parametrize("name, options", SCHEDULERS, ids=[n for n, _ in SCHEDULERS])
def test_schedulers_follow_pytorch_through_training(name, options):
    ours, theirs = both_mlp()
    opt = sg.optim.SGD(ours.parameters(), lr=0.1, momentum=0.9)
    torch_opt = torch.optim.SGD(theirs.parameters(), lr=0.1, momentum=0.9)
    schedule = getattr(sg.optim.lr_scheduler, name)(opt, **options)
    torch_schedule = getattr(torch.optim.lr_scheduler, name)(torch_opt, **options)
    x = np.sin(np.arange(12, dtype=np.float32)).reshape(4, 3)
    for _ in range(12):
        for model, optimizer, make in ((ours, opt, sg.tensor), (theirs, torch_opt, torch.tensor)):
            optimizer.zero_grad()
            (model(make(x)) ** 2).mean().backward()
            optimizer.step()
        schedule.step()
        torch_schedule.step()
        np.testing.assert_allclose(schedule.get_last_lr(), torch_schedule.get_last_lr(),
                                   rtol=1e-12)
    for name_, param in theirs.named_parameters():
        np.testing.assert_allclose(dict(ours.named_parameters())[name_].detach().numpy(),
                                   param.detach().numpy(), rtol=1e-4, atol=1e-6)


def test_a_scheduler_stepped_before_the_optimizer_warns_as_pytorch_does():
    messages = []
    for module, make in ((sg, sg.ones), (torch, torch.ones)):
        opt = module.optim.SGD([make(2, requires_grad=True)], lr=0.1)
        schedule = module.optim.lr_scheduler.StepLR(opt, step_size=2)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            schedule.step()
        messages.append([str(w.message) for w in caught])
    assert messages[0] == messages[1] and len(messages[0]) == 1
