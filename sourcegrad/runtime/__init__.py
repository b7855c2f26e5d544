"""The runtime layer: PyTorch's autograd semantics on NumPy arrays.

``tensor.py`` (the ``Tensor``), ``graph.py`` (nodes, ``record``, the backward engine),
``dispatch.py`` (NumPy calls on tensors, recorded through the rule table), ``reads.py``
(what a rule's VJP saves), ``views.py`` and ``in_place.py`` (views, in-place operations),
``tensorized.py`` (rule VJPs on tensors: ``create_graph``), ``grad_mode.py``
(``no_grad``...), ``factories.py`` (``sg.zeros``...), ``functions.py`` (``sg.exp``...),
``operations.py`` (the methods beyond the core: ``prod``, ``sort``, ``mm``..., which are
also the ``sg`` functions), ``decorated.py`` (``@sg.differentiable``), ``printing.py``
(PyTorch's ``repr``).
"""

from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: I001
from .tensor import Size, Tensor
from . import dispatch, graph, operations  # noqa: F401  (operations adds Tensor methods)
from .graph import record

__all__ = ["Size", "Tensor", "dispatch", "enable_grad", "graph", "is_grad_enabled",
           "no_grad", "record", "set_grad_enabled"]
