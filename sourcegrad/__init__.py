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
from .pytrees import tree_leaves, tree_map
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
    empty,
    empty_like,
    eye,
    float,
    float32,
    float64,
    from_numpy,
    full,
    full_like,
    int32,
    int64,
    long,
    manual_seed,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    tensor,
    zeros,
    zeros_like,
)
from .runtime.functions import (
    abs,
    add,
    cat,
    chunk,
    clamp,
    clone,
    cos,
    div,
    exp,
    flatten,
    log,
    matmul,
    max,
    maximum,
    mean,
    min,
    minimum,
    mul,
    narrow,
    permute,
    pow,
    relu,
    reshape,
    sigmoid,
    sin,
    split,
    sqrt,
    squeeze,
    stack,
    sub,
    sum,
    tanh,
    transpose,
    unbind,
    unsqueeze,
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
    "tree_leaves",
    "tree_map",
    "value_and_grad",
    "vjp",
]

# the runtime layer's names
__all__ += [
    "abs", "add", "arange", "autograd", "bool", "cat", "chunk", "clamp", "clone", "cos", "div",
    "double", "empty", "empty_like", "enable_grad", "exp", "eye", "flatten", "float", "float32",
    "float64", "from_numpy", "full", "full_like", "int32", "int64", "is_grad_enabled", "log",
    "long", "manual_seed", "matmul", "max", "maximum", "mean", "min", "minimum", "mul",
    "narrow", "nn", "no_grad", "ones", "ones_like", "optim", "permute", "pow", "rand",
    "rand_like", "randint", "randn", "randn_like", "relu", "reshape", "set_grad_enabled",
    "sigmoid", "sin", "Size", "split", "sqrt", "squeeze", "stack", "sub", "sum", "tanh",
    "Tensor", "tensor", "testing", "transpose", "unbind", "unsqueeze", "viz", "zeros",
    "zeros_like",
]


def __dir__() -> list[str]:
    """The public API only: the modules sourcegrad is made of are not part of it."""
    return sorted(__all__)
