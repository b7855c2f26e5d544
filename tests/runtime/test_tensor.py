"""Tensors: factories and PyTorch's dtype defaults, attributes, in-place updates, indexing,
and NumPy functions applied to tensors being tracked through the same rules."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.errors import NoDerivativeError


@pytest.mark.parametrize(("data", "dtype"), [
    ([1.0, 2.0], sg.float32),
    (1.5, sg.float32),
    ([1, 2], sg.int64),
    ([True, False], sg.bool),
    (np.array([1.0, 2.0]), sg.float64),
    (np.array([1.0], dtype=np.float32), sg.float32),
    ([np.float64(1.0), np.float64(2.0)], sg.float64),
])
def test_tensor_dtype_defaults(data, dtype):
    assert sg.tensor(data).dtype == dtype


def test_factories_default_to_float32_and_take_requires_grad():
    for t in (sg.zeros(2, 3), sg.ones((2, 3)), sg.rand(2, 3), sg.randn(2, 3), sg.eye(3),
              sg.full((2,), 1.5), sg.arange(0.0, 2.0, 0.5)):
        assert t.dtype == sg.float32
    assert sg.zeros(2, 3).shape == (2, 3) and sg.eye(3).shape == (3, 3)
    assert sg.arange(4).dtype == sg.int64 and sg.full((2,), 7).dtype == sg.int64
    assert sg.zeros(2, dtype=sg.float64).dtype == sg.float64
    t = sg.randn(3, requires_grad=True)
    assert t.requires_grad and t.is_leaf and t.grad is None
    assert sg.zeros_like(t).shape == (3,) and sg.ones_like(t, requires_grad=True).requires_grad


def test_from_numpy_shares_memory_and_dtype():
    array = np.array([1.0, 2.0])
    t = sg.from_numpy(array)
    array[0] = 5.0
    assert t.dtype == sg.float64 and t.tolist() == [5.0, 2.0]
    assert t.numpy() is array


def test_tensor_copies_its_data():
    array = np.array([1.0, 2.0])
    t = sg.tensor(array)
    array[0] = 5.0
    assert t.tolist() == [1.0, 2.0]


def test_manual_seed_makes_draws_repeatable():
    sg.manual_seed(3)
    first = sg.randn(4).tolist()
    sg.manual_seed(3)
    assert sg.randn(4).tolist() == first


def test_attributes():
    t = sg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert t.shape == (2, 3) and repr(t.shape) == "sg.Size([2, 3])" and t.ndim == 2
    assert t.T.shape == (3, 2) and t.size(1) == 3 and t.numel() == 6 and len(t) == 2
    assert t.sum().item() == 21.0 and t.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert float(t[1, 2]) == 6.0 and int(t[0, 0]) == 1
    assert [row.tolist() for row in t] == t.tolist()


def test_detach_shares_data_but_not_history():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    assert d.data is y.data and d.grad_fn is None and not d.requires_grad


def test_requires_grad_flag_on_leaves():
    x = sg.tensor([1.0])
    assert x.requires_grad_() is x and x.requires_grad
    x.requires_grad = False
    assert not (x * 2).requires_grad
    assert x.requires_grad_(flag=True).requires_grad and not x.requires_grad_(False).requires_grad


def test_in_place_update_under_no_grad_keeps_the_leaf_and_its_array():
    w = sg.tensor([1.0, 2.0], requires_grad=True)
    array = w.data
    (w * w).sum().backward()
    with sg.no_grad():
        w -= 0.5 * w.grad
        w *= 2
    assert w.data is array and w.is_leaf and w.requires_grad
    np.testing.assert_array_equal(w.detach().numpy(), [0.0, 0.0])


def test_in_place_on_a_leaf_that_requires_grad_is_refused():
    w = sg.ones(2, requires_grad=True)
    for action in (lambda: w.add_(1), lambda: w.zero_(), lambda: w.__setitem__([0], 3.0)):
        with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being"):
            action()
    # an element of it is a view of it (PyTorch's wording, too)
    with pytest.raises(RuntimeError, match="^a view of a leaf Variable that requires grad"):
        w[0] = 3.0


def test_in_place_on_a_non_leaf_is_recorded():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y += x * x
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), 3 + 2 * np.array([1.0, 2.0]))


def test_zero_on_grad_and_setitem_without_grad():
    t = sg.zeros(3)
    t[1] = 4.0
    assert t.tolist() == [0.0, 4.0, 0.0]
    assert t.zero_().tolist() == [0.0, 0.0, 0.0]


def test_comparisons_give_bool_tensors_without_history():
    x = sg.tensor([1.0, -2.0], requires_grad=True)
    for mask in (x > 0, x >= 0, x < 0, x <= 0, x == 1.0, x != 1.0):
        assert mask.dtype == sg.bool and not mask.requires_grad


def test_indexing_gradients_scatter_back():
    x = sg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (x[0] * 10 + x[:, 1] + x[x > 2].sum()).sum().backward()
    # x[0] gets 10 each, column 1 gets 1 each, the masked sum (3 + 4) is spread over 2 rows
    np.testing.assert_array_equal(x.grad.numpy(), [[10.0, 11.0], [2.0, 3.0]])


def test_indexing_with_an_integer_tensor():
    x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x[sg.tensor([2, 2, 0])].sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 0.0, 2.0])


def test_numpy_functions_on_tensors_are_tracked():
    x = sg.tensor([0.5, 1.0], requires_grad=True)
    y = np.sum(np.exp(x) * np.tanh(x))
    assert isinstance(y, sg.Tensor) and type(y.grad_fn).__name__ == "SumBackward0"
    y.backward()
    xs = np.array([0.5, 1.0], dtype=np.float32)
    expected = np.exp(xs) * np.tanh(xs) + np.exp(xs) * (1 - np.tanh(xs) ** 2)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-6)


def test_an_ndarray_on_the_left_defers_to_the_tensor():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = np.array([3.0, 4.0], dtype=np.float32) * x
    assert isinstance(y, sg.Tensor)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 4.0])


def test_a_numpy_function_without_a_rule_is_refused_on_tracked_tensors():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(NoDerivativeError, match="^np.spacing has no derivative rule"):
        np.spacing(x)
    with sg.no_grad():
        assert isinstance(np.spacing(x), sg.Tensor)
    assert np.argmax(x).item() == 1  # an integer result carries no gradient


def test_module_functions():
    x = sg.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    total = (sg.exp(x) + sg.log(sg.abs(x)) + sg.sum(x, dim=1, keepdim=True)
             + sg.mean(x) + sg.tanh(x) + sg.sigmoid(x) + sg.relu(x) + sg.sqrt(sg.abs(x))
             + sg.matmul(x, x) + sg.clamp(x, min=0) + sg.pow(x, 2) + sg.max(x) + sg.min(x))
    total.sum().backward()
    assert x.grad.shape == (2, 2) and np.all(np.isfinite(x.grad.numpy()))


def test_max_along_a_dim_returns_values_and_indices():
    x = sg.tensor([[1.0, 5.0], [7.0, 2.0]], requires_grad=True)
    values, indices = x.max(dim=1)
    assert values.tolist() == [5.0, 7.0] and indices.tolist() == [1, 0]
    values.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 1.0], [1.0, 0.0]])


def test_a_cast_passes_the_gradient_back_in_the_original_dtype():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = x.double() * 3
    assert y.dtype == sg.float64
    y.sum().backward()
    assert x.grad.dtype == sg.float32 and x.grad.tolist() == [3.0, 3.0]


def test_numpy_functions_taking_lists_of_tensors_are_tracked():
    a = sg.tensor([1.0, 2.0], requires_grad=True)
    b = sg.tensor([3.0], requires_grad=True)
    c = sg.tensor([5.0])
    joined = np.concatenate([a * 2, b, c])
    assert type(joined.grad_fn).__name__ == "CatBackward0"
    (joined * sg.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(b.grad.numpy(), [3.0])


def test_numpy_functions_returning_several_arrays_give_several_tensors():
    x = sg.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    first, second = np.split(x, 2)
    assert isinstance(first, sg.Tensor) and first.grad_fn is second.grad_fn
    (second * 3).sum().backward()  # the first piece gets no gradient: zeros stand in
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 3.0, 3.0])


def test_integer_outputs_of_a_recorded_node_do_not_require_grad():
    from sourcegrad.runtime import graph

    x = sg.tensor([1.5], requires_grad=True)
    value, count = graph.record("PairBackward", [x], [x.data * 2, np.array([3])],
                                lambda grads: (grads[0] * 2,))
    assert value.requires_grad and not count.requires_grad


def test_assigning_a_tensor_that_requires_grad_is_recorded():
    target = sg.zeros(2)
    value = sg.tensor(1.5, requires_grad=True)
    target[0] = value
    assert type(target.grad_fn).__name__ == "CopySlices" and target.tolist() == [1.5, 0.0]
    (target * sg.tensor([3.0, 5.0])).sum().backward()
    assert value.grad.item() == 3.0


def test_tuples_of_constants_and_tuples_holding_a_tensor_both_record_their_gradient():
    """A shape or an index of constants takes an operator's fast path; an index holding a
    tensor takes the general one. Either way the gradient reaches the right elements."""
    m = sg.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
    picked = m[sg.tensor(np.array([0, 2, 0])), 1:3]  # rows 0, 2 and 0 again
    sliced = m[1, 1:3]
    viewed = m.reshape((4, 3))
    assert type(picked.grad_fn).__name__ == "IndexBackward0"
    assert type(viewed.grad_fn).__name__ == "ViewBackward0"
    (picked.sum() + 10 * sliced.sum() + 100 * viewed[3, 2]).backward()
    np.testing.assert_array_equal(m.grad.numpy(), [[0, 2, 2, 0],
                                                   [0, 10, 10, 0],
                                                   [0, 1, 1, 100]])
