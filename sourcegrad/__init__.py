"""sourcegrad: differentiate NumPy code by source transformation.

``sg.grad(f)`` reads ``f``'s source and generates its gradient as readable Python; the
runtime layer (``sg.Tensor``) gives PyTorch's autograd semantics on top, with each decorated
function a single node whose backward is its generated adjoint.
"""

from . import rules  # noqa: F401  (registers the derivative rules)
from .api import grad, source, stop_gradient, value_and_grad, vjp
from .errors import NoDerivativeError, SourcegradError, UnsupportedSyntaxError

__version__ = "0.1.0"

__all__ = [
    "NoDerivativeError",
    "SourcegradError",
    "UnsupportedSyntaxError",
    "__version__",
    "grad",
    "source",
    "stop_gradient",
    "value_and_grad",
    "vjp",
]
