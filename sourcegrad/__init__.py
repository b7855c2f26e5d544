"""sourcegrad: differentiate NumPy code by source transformation.

``sg.grad(f)`` reads ``f``'s source and generates its gradient as readable Python; the
runtime layer (``sg.Tensor``) gives PyTorch's autograd semantics on top, with each decorated
function a single node whose backward is its generated adjoint.
"""

from . import rules  # noqa: F401  (registers the derivative rules)
from .api import grad, jvp, source, stop_gradient, value_and_grad, vjp
from .cache import clear as clear_cache
from .errors import NoDerivativeError, SourcegradError, UnsupportedSyntaxError
from .higher import hessian, hvp, jacobian
from .hooks import grad_hook
from .jit import JitWarning, jit  # Numba is imported only when sg.jit is called
from .user_rules import defjvp, defvjp

# isort: split
# ---- the runtime layer (PyTorch's autograd on NumPy) ----
from . import autograd, nn, optim, testing, viz
from .runtime import Size, Tensor, enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .runtime.decorated import differentiable
from .runtime.factories import (
    arange,
    bool,
    double,
    eye,
    float,
    float32,
    float64,
    from_numpy,
    full,
    int32,
    int64,
    long,
    manual_seed,
    ones,
    ones_like,
    rand,
    randn,
    tensor,
    zeros,
    zeros_like,
)
from .runtime.functions import (
    abs,
    cat,
    clamp,
    cos,
    exp,
    log,
    matmul,
    max,
    maximum,
    mean,
    min,
    minimum,
    pow,
    relu,
    reshape,
    sigmoid,
    sin,
    sqrt,
    stack,
    sum,
    tanh,
    transpose,
)

__version__ = "0.1.0"

__all__ = [
    "JitWarning",
    "NoDerivativeError",
    "SourcegradError",
    "UnsupportedSyntaxError",
    "__version__",
    "clear_cache",
    "defjvp",
    "defvjp",
    "differentiable",
    "grad",
    "grad_hook",
    "hessian",
    "hvp",
    "jacobian",
    "jit",
    "jvp",
    "source",
    "stop_gradient",
    "value_and_grad",
    "vjp",
]

# the runtime layer's names
__all__ += [
    "Size", "Tensor", "abs", "arange", "autograd", "bool", "cat", "clamp", "cos", "double",
    "enable_grad", "exp", "eye", "float", "float32", "float64", "from_numpy", "full", "int32",
    "int64", "is_grad_enabled", "log", "long", "manual_seed", "matmul", "max", "maximum",
    "mean", "min", "minimum", "nn", "no_grad", "ones", "ones_like", "optim", "pow", "rand",
    "randn", "relu", "reshape", "set_grad_enabled", "sigmoid", "sin", "sqrt", "stack", "sum",
    "tanh",
    "tensor", "testing", "transpose", "viz", "zeros", "zeros_like",
]


def __dir__() -> list[str]:
    """The public API only: the modules sourcegrad is made of are not part of it."""
    return sorted(__all__)
