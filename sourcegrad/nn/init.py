"""``sg.nn.init``: PyTorch's initialisation schemes, filling a tensor in place.

The bounds and gains are PyTorch's (``nn.Linear`` uses ``kaiming_uniform_(a=sqrt(5))``, a
uniform draw within ``1/sqrt(fan_in)``); the random numbers come from sourcegrad's generator
(``sg.manual_seed``), so they are not PyTorch's draws.
"""

from __future__ import annotations

import math
import warnings

from ..runtime import factories
from ..runtime.grad_mode import no_grad
from ..runtime.tensor import Tensor

__all__ = ["calculate_gain", "constant_", "kaiming_uniform_", "normal_", "ones_", "uniform_",
           "xavier_uniform_", "zeros_"]

_LINEAR = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d", "sigmoid")


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The gain PyTorch recommends for ``nonlinearity``.

    >>> sg.nn.init.calculate_gain("tanh")
    1.6666666666666667
    """
    if nonlinearity in _LINEAR:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fill(tensor: Tensor, values) -> Tensor:
    with no_grad():
        tensor.data[...] = values
    tensor._mark_modified()
    return tensor


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0) -> Tensor:
    """Fill ``tensor`` with draws uniform in ``[a, b)``; return it.

    >>> w = sg.nn.init.uniform_(sg.empty(2, 3), -1.0, 1.0)
    >>> bool(np.all(np.abs(w.numpy()) <= 1.0))
    True
    """
    return _fill(tensor, factories._rng.uniform(a, b, tensor.data.shape))


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0) -> Tensor:
    """Fill ``tensor`` with normal draws of ``mean`` and ``std``; return it.

    >>> sg.nn.init.normal_(sg.empty(3, 2), 0.0, 1.0).shape
    sg.Size([3, 2])
    """
    return _fill(tensor, factories._rng.normal(mean, std, tensor.data.shape))


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill ``tensor`` with ``val``; return it.

    >>> sg.nn.init.constant_(sg.empty(2), 0.5)
    tensor([0.5000, 0.5000])
    """
    return _fill(tensor, val)


def zeros_(tensor: Tensor) -> Tensor:
    """Fill ``tensor`` with zeros; return it.

    >>> sg.nn.init.zeros_(sg.empty(2))
    tensor([0., 0.])
    """
    return _fill(tensor, 0)


def ones_(tensor: Tensor) -> Tensor:
    """Fill ``tensor`` with ones; return it.

    >>> sg.nn.init.ones_(sg.empty(2))
    tensor([1., 1.])
    """
    return _fill(tensor, 1)


def fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """Inputs and outputs one element of a ``(out, in, *kernel)`` weight connects."""
    if tensor.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu") -> Tensor:
    """He's uniform initialisation, as PyTorch computes its bound: with
    ``a=sqrt(5)`` (what ``nn.Linear`` uses) the bound is ``1 / sqrt(fan_in)``.

    >>> w = sg.nn.init.kaiming_uniform_(sg.empty(200, 100), a=5 ** 0.5)
    >>> bool(np.abs(w.numpy()).max() <= 1 / 100 ** 0.5)
    True
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    if mode.lower() not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = fan_in_and_fan_out(tensor)
    fan = fan_in if mode.lower() == "fan_in" else fan_out
    bound = math.sqrt(3.0) * calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return uniform_(tensor, -bound, bound)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0) -> Tensor:
    """Glorot's uniform initialisation, bound ``gain * sqrt(6 / (fan_in +
    fan_out))``.

    >>> w = sg.nn.init.xavier_uniform_(sg.empty(30, 20))
    >>> bool(np.abs(w.numpy()).max() <= (6 / 50) ** 0.5)
    True
    """
    fan_in, fan_out = fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound)
