"""``sg.nn.Parameter``: a leaf tensor that a ``Module`` registers as one of its parameters.

As in PyTorch, a parameter is an ordinary tensor (operations on it return plain tensors),
made a leaf that requires grad by default, sharing the array (and the version counter) of
the tensor it is made from.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from ..runtime.tensor import Tensor, to_array


class Parameter(Tensor):
    """``Parameter(data=None, requires_grad=True)``; prints as ``Parameter containing:``
    followed by the tensor.

    >>> w = sg.nn.Parameter(sg.tensor([1.0, 2.0]))
    >>> w
    Parameter containing:
    tensor([1., 2.], requires_grad=True)
    >>> w.is_leaf, type(w * 2).__name__
    (True, 'Tensor')
    """

    def __init__(self, data: Any = None, requires_grad: bool = True) -> None:
        if data is None:
            array = np.empty(0, dtype=np.float32)
        elif isinstance(data, Tensor):
            array = data.data
        else:
            array = data if isinstance(data, np.ndarray) else to_array(data)
        super().__init__(array, requires_grad=requires_grad)
        if isinstance(data, Tensor):
            self._vbox = data._vbox  # the same storage: the same version counter

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (Parameter, (np.array(self.data), self.requires_grad))

    def __deepcopy__(self, memo: dict) -> Parameter:
        """A parameter with a copy of the data and ``requires_grad`` (not ``.grad``), as
        PyTorch's: ``copy.deepcopy(model)`` gives a model whose parameters are parameters."""
        copied = type(self)(copy.deepcopy(self.data, memo), self.requires_grad)
        memo[id(self)] = copied
        return copied
