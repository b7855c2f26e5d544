"""Comparing sourcegrad with PyTorch: the same script run by both libraries (``m`` is
``torch`` or ``sourcegrad``) must give the same results, or the same error."""

import numpy as np
import pytest

import sourcegrad as sg

torch = pytest.importorskip("torch")


def same(observe, atol=0.0):
    """``observe(m)`` gives the same result for both libraries: tensors of the same dtype
    with values equal to rounding (relative 1e-5 in float32, 1e-12 otherwise, and ``atol``:
    a gradient summed in another order is not 0 to the last bit), anything else equal."""
    expected, got = observe(torch), observe(sg)
    _assert_same(got, expected, atol)


def _assert_same(got, expected, atol=0.0):
    if isinstance(expected, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected), (got, expected)
        for g, e in zip(got, expected, strict=True):
            _assert_same(g, e, atol)
    elif isinstance(expected, torch.Tensor):
        assert isinstance(got, sg.Tensor), (got, expected)
        expected = expected.detach().numpy(force=True)  # (force: a ZeroTensor too)
        assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
        assert got.shape == expected.shape, (got.shape, expected.shape)
        np.testing.assert_allclose(got.detach().numpy(), expected, atol=atol,
                                   rtol=1e-5 if expected.dtype == np.float32 else 1e-12)
    else:
        assert got == expected


def grad_of(t):
    """``t.grad`` without PyTorch's warning about non-leaf tensors."""
    return t.grad if t.is_leaf or t.retains_grad else None


def error_of(action):
    """(type, message) of the error ``action()`` raises, PyTorch's spelling of types and its
    anomaly-detection hint set aside, or None."""
    try:
        action()
    except Exception as error:  # noqa: BLE001  (any error is compared)
        message = str(error).split(" Hint:")[0].replace("torch.", "sg.").replace(
            "torch::", "sg::")
        return type(error), message.replace("sg.FloatTensor", "sg.float32").replace(
            "sg.DoubleTensor", "sg.float64")
    return None


def same_error(action):
    expected = error_of(lambda: action(torch))
    assert expected is not None
    assert error_of(lambda: action(sg)) == expected
