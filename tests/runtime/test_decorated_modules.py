"""A Module's ``@sg.differentiable`` forward written in NumPy: one graph node whose generated
adjoint gives the parameters their gradients. Checked against central differences of the
NumPy code, against the same model written with the per-op runtime, and against PyTorch;
training with ``sg.optim.SGD`` follows the per-op model; what cannot work is refused."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg

torch = pytest.importorskip("torch")


class MLP(sg.nn.Module):
    """Two ``Linear`` layers whose forward reads their parameters in NumPy."""

    def __init__(self, n_in=3, hidden=5, n_out=2, dtype=np.float64):
        super().__init__()
        self.fc1 = sg.nn.Linear(n_in, hidden, dtype=dtype)
        self.fc2 = sg.nn.Linear(hidden, n_out, dtype=dtype)

    @sg.differentiable
    def forward(self, x):
        h = np.tanh(x @ self.fc1.weight.T + self.fc1.bias)
        return h @ self.fc2.weight.T + self.fc2.bias


def per_op_mlp(model):
    """The same model as PyTorch users write it: one recorded node per operation."""
    twin = sg.nn.Sequential(sg.nn.Linear(1, 1), sg.nn.Tanh(), sg.nn.Linear(1, 1))
    twin[0].weight, twin[0].bias = (sg.nn.Parameter(p.detach().numpy().copy())
                                    for p in (model.fc1.weight, model.fc1.bias))
    twin[2].weight, twin[2].bias = (sg.nn.Parameter(p.detach().numpy().copy())
                                    for p in (model.fc2.weight, model.fc2.bias))
    return twin


def torch_mlp(model):
    twin = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.Tanh(), torch.nn.Linear(5, 2))
    state = {k.replace("fc1", "0").replace("fc2", "2"): torch.from_numpy(v.numpy().copy())
             for k, v in model.state_dict().items()}
    twin.load_state_dict(state)
    return twin


def gradients(model):
    return [p.grad.numpy().copy() for p in model.parameters()]


def inputs(seed, rows=4, n_in=3, n_out=2):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((rows, n_in)), rng.standard_normal((rows, n_out))


def mse(out, y):
    return ((out - y) ** 2).mean()


def numerical_parameter_gradients(model, loss_of, eps=1e-6):
    """Central differences of ``loss_of(model)`` (run under ``no_grad``) in each element of
    each parameter, changed in place."""
    result = []
    for param in model.parameters():
        grad = np.zeros_like(param.data)
        for index in np.ndindex(param.data.shape):
            original = param.data[index]
            values = []
            for step in (eps, -eps):
                param.data[index] = original + step
                with sg.no_grad():
                    values.append(float(loss_of(model).item()))
            param.data[index] = original
            grad[index] = (values[0] - values[1]) / (2 * eps)
        result.append(grad)
    return result


# --------------------------------------------------------------------------- gradients
@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 4), st.integers(1, 4))
def test_parameter_gradients_match_central_differences(seed, rows, hidden):
    sg.manual_seed(seed % 1000)
    model = MLP(hidden=hidden)
    x, y = inputs(seed, rows)
    mse(model(sg.tensor(x)), sg.tensor(y)).backward()
    expected = numerical_parameter_gradients(model, lambda m: mse(m(sg.tensor(x)),
                                                                  sg.tensor(y)))
    for got, want in zip(gradients(model), expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


def test_one_node_with_the_same_gradients_as_the_per_op_model_and_pytorch():
    sg.manual_seed(0)
    model = MLP(dtype=np.float32)
    twin, theirs = per_op_mlp(model), torch_mlp(model)
    x, y = (a.astype(np.float32) for a in inputs(1))
    out = model(sg.tensor(x))
    assert type(out.grad_fn).__name__ == "MLPBackward"
    assert [type(node).__name__ for node, _ in out.grad_fn.next_functions] == \
        ["NoneType"] + ["AccumulateGrad"] * 4  # x, then the four parameters it read
    twin_out, torch_out = twin(sg.tensor(x)), theirs(torch.tensor(x))
    np.testing.assert_allclose(out.detach().numpy(), twin_out.detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(out.detach().numpy(), torch_out.detach().numpy(), rtol=1e-5)
    mse(out, sg.tensor(y)).backward()
    mse(twin_out, sg.tensor(y)).backward()
    mse(torch_out, torch.tensor(y)).backward()
    for got, per_op, reference in zip(gradients(model), gradients(twin),
                                      [p.grad.numpy() for p in theirs.parameters()], strict=True):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, per_op, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(got, reference, rtol=1e-5, atol=1e-7)


def test_an_input_that_requires_grad_gets_its_gradient_too():
    sg.manual_seed(1)
    model = MLP()
    x, _ = inputs(2)
    ours, reference = sg.tensor(x, requires_grad=True), sg.tensor(x, requires_grad=True)
    (model(ours) ** 2).sum().backward()
    (per_op_mlp(model)(reference) ** 2).sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), reference.grad.numpy(), rtol=1e-12)
    assert type(model(ours).grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"


def test_a_frozen_parameter_of_straight_code_is_a_constant():
    sg.manual_seed(14)
    model = MLP()
    twin = per_op_mlp(model)
    model.fc1.weight.requires_grad_(False)
    twin[0].weight.requires_grad_(False)
    x, y = inputs(15)
    out = model(sg.tensor(x))
    assert len(out.grad_fn.next_functions) == 1 + 3  # x and the three that require grad
    mse(out, sg.tensor(y)).backward()
    mse(twin(sg.tensor(x)), sg.tensor(y)).backward()
    assert model.fc1.weight.grad is None
    for got, want in zip(list(model.parameters())[1:], list(twin.parameters())[1:],
                         strict=True):
        np.testing.assert_allclose(got.grad.numpy(), want.grad.numpy(), rtol=1e-12)


class Gated(sg.nn.Module):
    """Parameters read on one branch only, a frozen one, one tied to another, a constant of
    the class, a plain float attribute, and two outputs."""

    SHIFT = 0.25

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(5)
        self.w = sg.nn.Parameter(rng.standard_normal((3, 3)))
        self.only_in_training = sg.nn.Parameter(rng.standard_normal(3))
        self.frozen = sg.nn.Parameter(rng.standard_normal(3), requires_grad=False)
        self.tied = self.w
        self.never_read = sg.nn.Parameter(np.ones(3))
        self.scale = 1.5

    @sg.differentiable
    def forward(self, x):
        h = np.tanh(x @ self.w + self.frozen * self.scale + self.SHIFT)
        if self.training:
            h = h * self.only_in_training
        return np.sum(h @ self.tied.T), h


def gated_per_op(model, x):
    h = sg.tanh(x @ model.w + model.frozen * model.scale + model.SHIFT)
    if model.training:
        h = h * model.only_in_training
    return (h @ model.tied.T).sum(), h


@pytest.mark.parametrize("training", [True, False])
def test_parameters_read_on_either_branch_frozen_tied_and_unread(training):
    x = sg.tensor(np.linspace(-1, 1, 6).reshape(2, 3))
    results = []
    for run in (lambda m: m(x), lambda m: gated_per_op(m, x)):
        model = Gated().train(training)
        total, h = run(model)
        (total + (h ** 2).sum()).backward()
        results.append(model)
    ours, reference = results
    for name in ("w", "only_in_training"):
        mine, theirs = getattr(ours, name).grad, getattr(reference, name).grad
        if theirs is None:
            assert mine is None, name
        else:
            np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-12, err_msg=name)
    assert (ours.only_in_training.grad is None) == (not training)
    assert ours.frozen.grad is None and ours.never_read.grad is None


def test_a_sequential_of_decorated_modules_is_one_node_each():
    class Layer(sg.nn.Module):
        def __init__(self, n_in, n_out):
            super().__init__()
            self.lin = sg.nn.Linear(n_in, n_out, dtype=np.float64)

        @sg.differentiable
        def forward(self, x):
            return np.tanh(x @ self.lin.weight.T + self.lin.bias)

    sg.manual_seed(2)
    model = sg.nn.Sequential(Layer(3, 4), sg.nn.ReLU(), Layer(4, 2))
    twin = sg.nn.Sequential(sg.nn.Linear(3, 4, dtype=np.float64), sg.nn.Tanh(), sg.nn.ReLU(),
                            sg.nn.Linear(4, 2, dtype=np.float64), sg.nn.Tanh())
    twin[0].load_state_dict(model[0].lin.state_dict())
    twin[3].load_state_dict(model[2].lin.state_dict())
    x, y = inputs(3)
    out = model(sg.tensor(x))
    assert type(out.grad_fn).__name__ == "LayerBackward"
    assert type(out.grad_fn.next_functions[0][0]).__name__ == "ReluBackward0"
    mse(out, sg.tensor(y)).backward()
    mse(twin(sg.tensor(x)), sg.tensor(y)).backward()
    for got, want in zip(gradients(model), gradients(twin), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12)


class Dense(sg.nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.lin = sg.nn.Linear(n_in, n_out, dtype=np.float64)

    @sg.differentiable
    def forward(self, x):
        return np.tanh(x @ self.lin.weight.T + self.lin.bias)


class Stack(sg.nn.Module):
    """A whole model as one node: its forward calls its submodules' decorated forward."""

    def __init__(self):
        super().__init__()
        self.first = Dense(3, 4)
        self.second = Dense(4, 2)

    @sg.differentiable
    def forward(self, x):
        return Dense.forward(self.second, Dense.forward(self.first, x))


def test_a_model_calling_its_decorated_submodules_is_one_node():
    sg.manual_seed(4)
    model = Stack()
    x, y = inputs(4)
    out = model(sg.tensor(x))
    assert type(out.grad_fn).__name__ == "StackBackward"
    assert len(out.grad_fn.next_functions) == 5
    mse(out, sg.tensor(y)).backward()
    expected = numerical_parameter_gradients(model, lambda m: mse(m(sg.tensor(x)),
                                                                  sg.tensor(y)))
    for got, want in zip(gradients(model), expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
    per_op = sg.nn.Sequential(sg.nn.Linear(3, 4, dtype=np.float64), sg.nn.Tanh(),
                              sg.nn.Linear(4, 2, dtype=np.float64), sg.nn.Tanh())
    per_op[0].load_state_dict(model.first.lin.state_dict())
    per_op[2].load_state_dict(model.second.lin.state_dict())
    mse(per_op(sg.tensor(x)), sg.tensor(y)).backward()
    for got, want in zip(gradients(model), gradients(per_op), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12)


# ---------------------------------------------------------------------------- training
@pytest.mark.parametrize("options", [dict(lr=0.1), dict(lr=0.05, momentum=0.9,
                                                        weight_decay=0.01)])
def test_training_with_sgd_gives_the_per_op_models_parameters(options):
    sg.manual_seed(6)
    model = MLP()
    twin = per_op_mlp(model)
    optimizers = [sg.optim.SGD(m.parameters(), **options) for m in (model, twin)]
    x, y = inputs(7, rows=8)
    for _ in range(5):
        for m, optimizer in zip((model, twin), optimizers, strict=True):
            optimizer.zero_grad()
            mse(m(sg.tensor(x)), sg.tensor(y)).backward()
            optimizer.step()
    for got, want in zip(model.parameters(), twin.parameters(), strict=True):
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-12)
    assert not np.allclose(model.fc1.weight.detach().numpy(),
                           MLP().fc1.weight.detach().numpy())  # it did move


# --------------------------------------------------------------- grad mode and the graph
def test_under_no_grad_nothing_is_recorded_and_the_values_are_the_functions():
    sg.manual_seed(8)
    model = MLP()
    x, _ = inputs(9)
    with sg.no_grad():
        out = model(sg.tensor(x))
    assert out.grad_fn is None and not out.requires_grad
    w1, b1, w2, b2 = (p.detach().numpy() for p in model.parameters())
    np.testing.assert_array_equal(out.numpy(), np.tanh(x @ w1.T + b1) @ w2.T + b2)
    assert model.fc1.weight.grad is None


def test_called_on_arrays_it_records_for_the_parameters():
    sg.manual_seed(9)
    model = MLP()
    x, _ = inputs(10)
    out = model(x)  # a NumPy array: the parameters still require grad, as in PyTorch
    assert isinstance(out, sg.Tensor) and type(out.grad_fn).__name__ == "MLPBackward"


def test_a_module_holding_no_tensor_gives_exactly_what_the_function_gives():
    class Plain(sg.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = np.arange(6.0).reshape(3, 2)

        @sg.differentiable
        def forward(self, x):
            return np.tanh(x @ self.w)

    x = np.linspace(0, 1, 6).reshape(2, 3)
    out = Plain()(x)
    assert type(out) is np.ndarray
    np.testing.assert_array_equal(out, np.tanh(x @ np.arange(6.0).reshape(3, 2)))


def test_retain_graph_and_a_second_backward_behave_as_in_pytorch():
    sg.manual_seed(10)
    model = MLP()
    x, y = inputs(11)
    loss = mse(model(sg.tensor(x)), sg.tensor(y))
    loss.backward(retain_graph=True)
    once = gradients(model)
    loss.backward()
    for twice, first in zip(gradients(model), once, strict=True):
        np.testing.assert_allclose(twice, 2 * first, rtol=1e-12)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second"):
        loss.backward()


def test_a_parameter_changed_in_place_before_backward_is_an_error():
    sg.manual_seed(11)
    model = MLP()
    x, y = inputs(12)
    loss = mse(model(sg.tensor(x)), sg.tensor(y))
    with sg.no_grad():
        model.fc1.weight.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_create_graph_gives_first_gradients_and_refuses_a_second_derivative():
    sg.manual_seed(12)
    model = MLP()
    twin = per_op_mlp(model)
    x, y = inputs(13)
    (grad,) = sg.autograd.grad(mse(model(sg.tensor(x)), sg.tensor(y)), [model.fc2.bias],
                               create_graph=True)
    (expected,) = sg.autograd.grad(mse(twin(sg.tensor(x)), sg.tensor(y)), [twin[2].bias])
    np.testing.assert_allclose(grad.detach().numpy(), expected.numpy(), rtol=1e-12)
    with pytest.raises(RuntimeError, match="differentiate twice through MLPBackward"):
        grad.sum().backward()


def test_the_node_is_drawn_with_its_class_and_source():
    pytest.importorskip("graphviz")
    model = MLP()
    out = model(sg.tensor(np.ones((1, 3))))
    dot = sg.viz.make_dot(out, params=dict(model.named_parameters()))
    assert "MLPBackward" in dot.source and "forward (test_decorated_modules.py:" in dot.source


# ------------------------------------------------------------------ what cannot work
class Counting(sg.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = sg.nn.Parameter(np.ones(3))
        self.calls = 0
        self.inner = Dense(3, 3)

    def half(self, x):
        return x / 2

    @property
    def doubled(self):
        return self.w * 2


def refusal(forward):
    """The error calling a ``Counting`` module whose forward is ``forward`` raises."""
    cls = type("Counting", (Counting,), {"forward": sg.differentiable(forward)})
    with pytest.raises(sg.UnsupportedSyntaxError) as error:
        cls()(sg.tensor(np.ones((2, 3))))
    return error.value


def count_calls(self, x):
    self.calls += 1
    return x * self.w


def keep_input(self, x):
    self.last = x
    return x * self.w


def scale_in_place(self, x):
    self.w[0] = 2.0
    return x * self.w


def unpack_into_state(self, x):
    y, self.last = x * self.w, x
    return y


def call_submodule(self, x):
    return self.inner(x) * self.w


def call_method(self, x):
    return self.half(x) * self.w


def read_property(self, x):
    return x * self.doubled


@pytest.mark.parametrize("forward, construct, advice", [
    (count_calls, "changing the module's state (self.calls)", "Return the new value"),
    (keep_input, "changing the module's state (self.last)", "the change would be lost"),
    (scale_in_place, "changing the module's state (self.w)", "leave this method undecorated"),
    (unpack_into_state, "changing the module's state (self.last)", "Return the new value"),
    (call_submodule, "calling self.inner(...)", "Dense.forward(self.inner, ...)"),
    (call_method, "calling self.half(...)", "Counting.half(self, ...)"),
    (read_property, "reading the property self.doubled", "compute the value in the method"),
])
def test_what_cannot_work_is_refused_naming_the_line(forward, construct, advice):
    error = refusal(forward)
    assert error.filename == __file__
    assert error.lineno == forward.__code__.co_firstlineno + 1
    assert construct in str(error) and advice in str(error)
    assert error.line.strip() == str(error).splitlines()[2].strip()


def test_calling_a_submodule_that_is_not_numpy_code_says_to_read_its_parameters():
    def forward(self, x):
        return self.lin(x)

    cls = type("Wrapper", (Dense,), {"forward": sg.differentiable(forward)})
    with pytest.raises(sg.UnsupportedSyntaxError,
                       match=r"read its parameters \(self.lin.weight, self.lin.bias\)"):
        cls(3, 2)(sg.tensor(np.ones((1, 3))))


def test_a_refused_call_changes_nothing_and_later_calls_work():
    model = type("Counting", (Counting,), {"forward": sg.differentiable(count_calls)})()
    for _ in range(2):  # refused at every call, not only at the first
        with pytest.raises(sg.UnsupportedSyntaxError):
            model(sg.tensor(np.ones((2, 3))))
    assert model.calls == 0 and model.w.grad is None
    assert type(MLP()(sg.tensor(np.ones((1, 3)))).grad_fn).__name__ == "MLPBackward"


def test_writing_into_a_local_array_at_an_index_the_module_holds_is_no_change_of_state():
    class Pick(sg.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = sg.nn.Parameter(np.array([1.0, 2.0, 3.0]))
            self.index = 1

        @sg.differentiable
        def forward(self, x):
            out = np.zeros(3)
            out[self.index] = np.sum(x * self.w)
            return np.tanh(out)

    model = Pick()
    x = np.array([0.5, -1.0, 2.0])
    (model(sg.tensor(x)) * sg.tensor(np.array([1.0, 10.0, 100.0]))).sum().backward()
    inner = np.sum(x * np.array([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(model.w.grad.numpy(), 10.0 * (1 - np.tanh(inner) ** 2) * x,
                               rtol=1e-12)


def call_method_by_class(self, x):
    return Counting.half(self, x) * self.w + Dense.forward(self.inner, x)


def test_the_advised_spellings_are_differentiated_into_the_node():
    sg.manual_seed(13)
    cls = type("Counting", (Counting,), {"forward": sg.differentiable(call_method_by_class)})
    model = cls()
    x = np.linspace(-1, 1, 6).reshape(2, 3)
    (model(sg.tensor(x)) ** 2).sum().backward()
    lin = model.inner.lin
    reference = [sg.nn.Parameter(p.detach().numpy().copy()) for p in (model.w, lin.weight,
                                                                        lin.bias)]
    w, weight, bias = reference
    ((sg.tensor(x) / 2 * w + sg.tanh(sg.tensor(x) @ weight.T + bias)) ** 2).sum().backward()
    for got, want in zip((model.w, lin.weight, lin.bias), reference, strict=True):
        np.testing.assert_allclose(got.grad.numpy(), want.grad.numpy(), rtol=1e-12)


# ------------------------------------------------------------- a module changed later
class Affine(sg.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = sg.nn.Parameter(np.linspace(0.5, 1.5, 3))
        self.shift = 0.5

    @sg.differentiable
    def forward(self, x):
        return np.sum(np.tanh(x * self.w + self.shift) ** 2)


def test_an_attribute_made_a_parameter_after_the_first_call_gets_its_gradient():
    x = np.linspace(-1, 1, 3)
    model = Affine()
    model(sg.tensor(x)).backward()
    model.shift = sg.nn.Parameter(np.array(0.5))
    model.w.grad = None
    model(sg.tensor(x)).backward()
    w, shift = model.w.detach().numpy(), 0.5
    inner = x * w + shift
    d_inner = 2 * np.tanh(inner) * (1 - np.tanh(inner) ** 2)
    np.testing.assert_allclose(model.shift.grad.numpy(), np.sum(d_inner), rtol=1e-12)
    np.testing.assert_allclose(model.w.grad.numpy(), d_inner * x, rtol=1e-12)


def test_a_parameter_made_a_constant_after_the_first_call_is_one():
    x = np.linspace(-1, 1, 3)
    model = Affine()
    model(sg.tensor(x)).backward()
    del model.w
    model.w = np.linspace(0.5, 1.5, 3)  # a plain array now: a constant
    out = model(sg.tensor(x, requires_grad=True))
    assert [type(n).__name__ for n, _ in out.grad_fn.next_functions] == ["AccumulateGrad"]
    np.testing.assert_allclose(out.item(), np.sum(np.tanh(x * model.w + 0.5) ** 2),
                               rtol=1e-12)


class Deep(sg.nn.Module):
    """Layers held in a Sequential, iterated and indexed by NumPy code."""

    def __init__(self, widths=(3, 4, 4, 2)):
        super().__init__()
        pairs = zip(widths[:-1], widths[1:], strict=True)
        self.layers = sg.nn.Sequential(*(sg.nn.Linear(n_in, n_out, dtype=np.float64)
                                         for n_in, n_out in pairs))

    @sg.differentiable
    def forward(self, x):
        for layer in self.layers:
            x = np.tanh(x @ layer.weight.T + layer.bias)
        return x * self.layers[0].bias[0]


def test_layers_held_in_a_sequential_are_iterated_and_indexed_in_one_node():
    sg.manual_seed(16)
    model = Deep()
    x, y = inputs(17)
    out = model(sg.tensor(x))
    assert type(out.grad_fn).__name__ == "DeepBackward"
    mse(out, sg.tensor(y)).backward()
    expected = numerical_parameter_gradients(model, lambda m: mse(m(sg.tensor(x)),
                                                                  sg.tensor(y)))
    for got, want in zip(gradients(model), expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
    reference = [sg.nn.Parameter(p.detach().numpy().copy()) for p in model.parameters()]
    h = sg.tensor(x)
    for weight, bias in zip(reference[::2], reference[1::2], strict=True):
        h = sg.tanh(h @ weight.T + bias)
    mse(h * reference[1][0], sg.tensor(y)).backward()
    for got, want in zip(gradients(model), reference, strict=True):
        np.testing.assert_allclose(got, want.grad.numpy(), rtol=1e-12)
