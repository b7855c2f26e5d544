"""Derivatives of products (``dot``, ``matmul``, ``tensordot``, ``einsum``...) and of
``np.linalg``.

Products are linear in each factor, so each JVP is the product with one factor replaced by
its tangent. The decompositions (``cholesky``, ``eigh``) read one triangle of a symmetric
input; their cotangents are symmetric, as in PyTorch, and their JVPs use the symmetric part
of the tangent: only symmetric perturbations keep the input valid.
"""

import numpy as np

from .registry import rule
from .support import (
    cholesky_jvp,
    cholesky_vjp,
    dot_axes,
    eigh_jvp,
    eigh_vjp,
    einsum_jvp,
    einsum_vjp_one,
    inner_axes,
    kron_vjp_a,
    kron_vjp_b,
    matmul_vjp_x1,
    matmul_vjp_x2,
    norm_derivative,
    solve_jvp_a,
    solve_vjp_a,
    solve_vjp_b,
    tensordot_vjp_a,
    tensordot_vjp_b,
    undiagonal,
    unreduce,
)

# ---------------------------------------------------------------------------------- products


@rule(np.matmul)
class matmul:
    """``x1 @ x2`` for vectors and stacks of matrices (batch dimensions broadcast)."""

    torch_name = "Mm"

    def vjp_x1(g, ans, x1, x2):
        return matmul_vjp_x1(g, x1, x2)

    def vjp_x2(g, ans, x1, x2):
        return matmul_vjp_x2(g, x1, x2)

    def jvp_x1(t, ans, x1, x2):
        return np.matmul(t, x2)

    def jvp_x2(t, ans, x1, x2):
        return np.matmul(x1, t)


@rule(np.dot)
class dot:
    """``np.dot`` is a ``tensordot`` over the last axis of ``a`` and the second-to-last of
    ``b`` (a plain product when either is a scalar)."""

    torch_name = "Dot"

    def vjp_a(g, ans, a, b):
        return tensordot_vjp_a(g, a, b, dot_axes(a, b))

    def vjp_b(g, ans, a, b):
        return tensordot_vjp_b(g, a, b, dot_axes(a, b))

    def jvp_a(t, ans, a, b):
        return np.dot(t, b)

    def jvp_b(t, ans, a, b):
        return np.dot(a, t)


@rule(np.inner)
class inner:
    torch_name = "Inner"

    def vjp_a(g, ans, a, b):
        return tensordot_vjp_a(g, a, b, inner_axes(a, b))

    def vjp_b(g, ans, a, b):
        return tensordot_vjp_b(g, a, b, inner_axes(a, b))

    def jvp_a(t, ans, a, b):
        return np.inner(t, b)

    def jvp_b(t, ans, a, b):
        return np.inner(a, t)


@rule(np.outer)
class outer:
    """Both arguments are flattened first."""

    torch_name = "Outer"

    def vjp_a(g, ans, a, b):
        return np.reshape(g @ np.ravel(b), np.shape(a))

    def vjp_b(g, ans, a, b):
        return np.reshape(np.ravel(a) @ g, np.shape(b))

    def jvp_a(t, ans, a, b):
        return np.outer(t, b)

    def jvp_b(t, ans, a, b):
        return np.outer(a, t)


@rule(np.vdot)
class vdot:
    """Both arguments are flattened (and must have the same size); real arguments only."""

    torch_name = "Dot"

    def vjp_a(g, ans, a, b):
        return g * np.reshape(b, np.shape(a))

    def vjp_b(g, ans, a, b):
        return g * np.reshape(a, np.shape(b))

    def jvp_a(t, ans, a, b):
        return np.vdot(t, b)

    def jvp_b(t, ans, a, b):
        return np.vdot(a, t)


@rule(np.tensordot)
class tensordot:
    torch_name = "Tensordot"
    nondiff = ("axes",)

    def vjp_a(g, ans, a, b, axes=2):
        return tensordot_vjp_a(g, a, b, axes=axes)

    def vjp_b(g, ans, a, b, axes=2):
        return tensordot_vjp_b(g, a, b, axes=axes)

    def jvp_a(t, ans, a, b, axes=2):
        return np.tensordot(t, b, axes=axes)

    def jvp_b(t, ans, a, b, axes=2):
        return np.tensordot(a, t, axes=axes)


@rule(np.kron)
class kron:
    torch_name = "Kron"

    def vjp_a(g, ans, a, b):
        return kron_vjp_a(g, a, b)

    def vjp_b(g, ans, a, b):
        return kron_vjp_b(g, a, b)

    def jvp_a(t, ans, a, b):
        return np.kron(t, b)

    def jvp_b(t, ans, a, b):
        return np.kron(a, t)


@rule(np.einsum)
class einsum:
    """Subscripts in a string (implicit or explicit output, ``...`` and repeated indices
    allowed), or interleaved with the operands (``np.einsum(a, [0, 1], b, [1, 2], [0, 2])``,
    output sublist optional, ``Ellipsis`` allowed), where ``subscripts`` is the first operand.
    ``operands`` is variadic, so its cotangents come back as one tuple (``None`` at a
    sublist)."""

    torch_name = "Einsum"
    nondiff = ("optimize",)

    def vjp_subscripts(g, ans, subscripts, *operands, optimize=False):
        return einsum_vjp_one(g, subscripts, operands, -1)

    def vjp_operands(g, ans, subscripts, *operands, optimize=False):
        return [einsum_vjp_one(g, subscripts, operands, k) for k in range(len(operands))]

    def jvp_subscripts(t, ans, subscripts, *operands, optimize=False):
        return np.einsum(t, *operands)

    def jvp_operands(t, ans, subscripts, *operands, optimize=False):
        return einsum_jvp(t, subscripts, operands)


@rule(np.trace)
class trace:
    torch_name = "Trace"
    linear = True
    nondiff = ("offset", "axis1", "axis2", "dtype", "out")

    def vjp_a(g, ans, a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return undiagonal(np.expand_dims(g, -1), a, offset=offset, axis1=axis1,
                          axis2=axis2)


# ----------------------------------------------------------------------------------- linalg


@rule(np.linalg.det)
class det:
    """``det(a) * inv(a).T``; a singular ``a`` raises ``LinAlgError`` rather than giving a
    wrong gradient."""

    torch_name = "LinalgDet"

    def vjp_a(g, ans, a):
        return np.expand_dims(g * ans, (-2, -1)) * np.swapaxes(np.linalg.inv(a), -1, -2)

    def jvp_a(t, ans, a):
        return ans * np.trace(np.linalg.solve(a, t), axis1=-2, axis2=-1)


@rule(np.linalg.slogdet)
class slogdet:
    """Returns ``(sign, logabsdet)``; ``sign`` is piecewise constant, so only the cotangent
    of ``logabsdet`` (``g[1]``) matters, and the tangent of ``sign`` is 0."""
    sequence_output = True

    torch_name = "LinalgSlogdet"

    def vjp_a(g, ans, a):
        return np.expand_dims(g[1], (-2, -1)) * np.swapaxes(np.linalg.inv(a), -1, -2)

    def jvp_a(t, ans, a):
        return np.zeros_like(ans[0]), np.trace(np.linalg.solve(a, t), axis1=-2, axis2=-1)


@rule(np.linalg.inv)
class inv:
    torch_name = "LinalgInv"

    def vjp_a(g, ans, a):
        return -np.swapaxes(ans, -1, -2) @ g @ np.swapaxes(ans, -1, -2)

    def jvp_a(t, ans, a):
        return -ans @ t @ ans


@rule(np.linalg.solve)
class solve:
    """NumPy 2's convention: ``b`` is a vector exactly when it is 1-D."""

    torch_name = "LinalgSolve"

    def vjp_a(g, ans, a, b):
        return solve_vjp_a(g, a, b, ans)

    def vjp_b(g, ans, a, b):
        return solve_vjp_b(g, a, b)

    def jvp_a(t, ans, a, b):
        return solve_jvp_a(t, a, b, ans)

    def jvp_b(t, ans, a, b):
        return np.linalg.solve(a, t)


@rule(np.linalg.norm)
class norm:
    """Every vector and matrix norm NumPy computes. At a zero vector the derivative is 0 (as
    in PyTorch); the max-type norms share it among tied entries."""

    torch_name = "LinalgVectorNorm"
    nondiff = ("ord", "axis", "keepdims")

    def vjp_x(g, ans, x, ord=None, axis=None, keepdims=False):
        return unreduce(g, x, axis=axis, keepdims=keepdims) * norm_derivative(x, ans, ord=ord,
                                                                            axis=axis)

    def jvp_x(t, ans, x, ord=None, axis=None, keepdims=False):
        return np.sum(t * norm_derivative(x, ans, ord=ord, axis=axis), axis=axis,
                      keepdims=keepdims)


@rule(np.linalg.cholesky)
class cholesky:
    """Symmetric cotangent (see the module docstring)."""

    torch_name = "LinalgCholesky"
    nondiff = ("upper",)

    def vjp_a(g, ans, a, upper=False):
        return cholesky_vjp(g, ans, upper=upper)

    def jvp_a(t, ans, a, upper=False):
        return cholesky_jvp(t, ans, upper=upper)


@rule(np.linalg.eigh)
class eigh:
    """Returns ``(eigenvalues, eigenvectors)``; ``g`` holds the cotangent of both. Repeated
    eigenvalues make the eigenvectors non-differentiable (infinite gradient)."""
    sequence_output = True

    torch_name = "LinalgEigh"
    nondiff = ("UPLO",)

    def vjp_a(g, ans, a, UPLO="L"):
        return eigh_vjp(g, ans)

    def jvp_a(t, ans, a, UPLO="L"):
        return eigh_jvp(t, ans)
