"""What a rule's VJP reads of its arguments: their values, or only their shapes.

A node keeps what its backward reads, and PyTorch's autograd distinguishes the two cases
the same way: a value it reads is a *saved tensor* (modifying it in place before backward
is an error; a second backward after it was freed is an error), while a shape costs
nothing to keep (``AddBackward0`` saves no tensor, so its backward may run twice). The
runtime decides from the rule's expression itself: a parameter read anywhere but in a
shape position (``unbroadcast(g, x)``'s ``x``, ``np.shape(x)``, ``x.dtype``...) is read
for its value. The shape positions are those the transformer frees values for
(``passes/shape_only.py``), plus the metadata NumPy functions and attributes.
"""

from __future__ import annotations

import ast
import functools
from types import FunctionType

from ..codegen.walk import walk
from ..passes.shape_only import NUMPY_SHAPE_FUNCTIONS, SHAPE_ARGUMENTS
from ..rules.registry import shared_rule_expression

# NumPy functions reading no element of their arguments, and array attributes likewise.
_METADATA_FUNCTIONS = NUMPY_SHAPE_FUNCTIONS | {"result_type"}
# Helpers of ``rules/support.py`` reading arguments at these positions for their shapes,
# dtypes or structure only (beyond those whose values the transformer frees). A value
# wrongly listed here would go unchecked for in-place changes: ``tests/runtime/test_reads.py``
# runs every rule's VJPs with what they do not read replaced by shapes alone.
_SHAPE_ARGUMENTS = {
    **SHAPE_ARGUMENTS,
    # cotangents of reshaping, joining and copying functions
    "unstack_like": (1,), "inverse_permutation": (0,), "split_back": (1,),
    "reshape_each": (1,), "untile": (1,), "unrepeat": (1,), "untake": (1,),
    "untake_along_axis": (1,), "undiagonal": (1,), "unblock": (1,), "last_writes": (1,),
    "ungather": (1,), "positions_of": (0,), "unpad": (1,), "pad_fill_vjp": (1, 3),
    "diff_vjp": (2, 5, 6), "gradient_vjp": (1,), "rollaxis_destination": (0,),
    "linspace_weights": (0,), "broadcast_size": (0, 1), "real_like": (1,),
    "broadcast_like": (1,), "reduce_like": (1,), "unbroadcast_each": (1,),
    "broadcast_each": (1,),
    # products: the cotangent of one factor reads the other's value and its own shape
    "matmul_vjp_x1": (1,), "matmul_vjp_x2": (2,), "tensordot_vjp_a": (1,),
    "tensordot_vjp_b": (2,), "dot_axes": (0, 1), "inner_axes": (0, 1), "cross_vjp_a": (1,),
    "cross_vjp_b": (2,), "solve_vjp_a": (2,), "solve_vjp_b": (2,),
    # functions of complex values, constant or linear on real ones
    "sign_vjp": (1,), "imag_vjp": (1,), "fft_vjp": (1,), "fftn_vjp": (1,), "rfft_vjp": (1,),
    "rfftn_vjp": (1,), "irfft_vjp": (1,), "irfftn_vjp": (1,),
}
_METADATA_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype"})


@functools.cache
def value_reads(vjp: FunctionType) -> frozenset[str]:
    """The names (parameters, ``ans``) whose values ``vjp``'s expression reads."""
    expr = shared_rule_expression(vjp)
    parents = {id(child): node for node in walk(expr) for child in ast.iter_child_nodes(node)}
    return frozenset(node.id for node in walk(expr)
                     if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
                     and not _metadata_only(node, parents.get(id(node))))


def _metadata_only(name: ast.Name, parent: ast.AST | None) -> bool:
    if isinstance(parent, ast.Attribute):
        return parent.attr in _METADATA_ATTRIBUTES
    if not isinstance(parent, ast.Call) or name not in parent.args:
        return False
    position = parent.args.index(name)
    func = parent.func
    if isinstance(func, ast.Name):
        return position in _SHAPE_ARGUMENTS.get(func.id, ())
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == "np" and func.attr in _METADATA_FUNCTIONS)
