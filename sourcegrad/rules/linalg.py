"""Derivatives of products (``dot``, ``matmul``, ``tensordot``, ``einsum``...) and of
``np.linalg``.

Products are linear in each factor, so each JVP is the product with one factor replaced by
its tangent. The decompositions (``cholesky``, ``eigh``) read one triangle of a symmetric
input; their cotangents are symmetric, as in PyTorch, and their JVPs use the symmetric part
of the tangent: only symmetric perturbations keep the input valid.
"""

import operator

import numpy as np

from .registry import rule
from .support import (
    cholesky_jvp,
    cholesky_vjp,
    cross_vjp_a,
    cross_vjp_b,
    dot_axes,
    eig_jvp,
    eig_vjp,
    eigh_jvp,
    eigh_vjp,
    eigvals_jvp,
    eigvals_vjp,
    eigvalsh_jvp,
    eigvalsh_vjp,
    einsum_jvp,
    einsum_vjp_one,
    inner_axes,
    kron_vjp_a,
    kron_vjp_b,
    lstsq_jvp_a,
    lstsq_jvp_b,
    lstsq_vjp_a,
    lstsq_vjp_b,
    matmul_vjp_x1,
    matmul_vjp_x2,
    matrix_power_jvp,
    matrix_power_vjp,
    multi_dot_jvp,
    multi_dot_vjp,
    norm_derivative,
    pinv_jvp,
    pinv_vjp,
    qr_jvp,
    qr_vjp,
    solve_jvp_a,
    solve_vjp_a,
    solve_vjp_b,
    svd_jvp,
    svd_vjp,
    tensordot_vjp_a,
    tensordot_vjp_b,
    unbroadcast,
    undiagonal,
    unreduce,
    vector_norm_derivative,
)

# ---------------------------------------------------------------------------------- products


@rule(np.matmul, operator.matmul, getattr(np.linalg, "matmul", None))
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


@rule(np.outer, getattr(np.linalg, "outer", None))
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
    """Both arguments are flattened (and must have the same size); ``a`` is conjugated."""

    torch_name = "Dot"

    def vjp_a(g, ans, a, b):
        return np.conj(g * np.reshape(b, np.shape(a)))

    def vjp_b(g, ans, a, b):
        return g * np.reshape(np.conj(a), np.shape(b))

    def jvp_a(t, ans, a, b):
        return np.vdot(t, b)

    def jvp_b(t, ans, a, b):
        return np.vdot(a, t)


@rule(np.tensordot, getattr(np.linalg, "tensordot", None))
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
    nondiff = ("axis", "keepdims")
    unsupported = ("ord",)  # (a float p of a p-norm moves the value: not computed)

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


@rule(np.linalg.svd)
class svd:
    """``(u, s, vh)``, or ``s`` alone with ``compute_uv=False``. The singular values must be
    distinct and nonzero for the singular vectors to be differentiable (the cotangent is
    infinite otherwise, as in PyTorch); ``full_matrices=True`` of a non-square matrix (whose
    extra singular vectors are not unique) is refused, except with ``compute_uv=False``."""

    sequence_output = True
    torch_name = "LinalgSvd"
    nondiff = ("full_matrices", "compute_uv", "hermitian")

    def vjp_a(g, ans, a, full_matrices=True, compute_uv=True, hermitian=False):
        return svd_vjp(g, ans, a, full_matrices=full_matrices, compute_uv=compute_uv)

    def jvp_a(t, ans, a, full_matrices=True, compute_uv=True, hermitian=False):
        return svd_jvp(t, ans, a, full_matrices=full_matrices, compute_uv=compute_uv)


@rule(getattr(np.linalg, "svdvals", None))
class svdvals:
    torch_name = "LinalgSvdvals"

    def vjp_x(g, ans, x):
        return svd_vjp(g, ans, x, compute_uv=False)

    def jvp_x(t, ans, x):
        return svd_jvp(t, ans, x, compute_uv=False)


@rule(np.linalg.pinv)
class pinv:
    """The derivative of the pseudo-inverse where the rank is locally constant (full rank,
    say); ``rcond``/``rtol`` decide the rank and have no derivative."""

    torch_name = "LinalgPinv"
    nondiff = ("rcond", "hermitian", "rtol")

    def vjp_a(g, ans, a, rcond=None, hermitian=False, *, rtol=None):
        return pinv_vjp(g, ans, a)

    def jvp_a(t, ans, a, rcond=None, hermitian=False, *, rtol=None):
        return pinv_jvp(t, ans, a)


@rule(np.linalg.eig)
class eig:
    """``(w, v)`` of a real matrix whose eigenvalues are real and distinct (then NumPy
    returns them real, with unit eigenvectors); complex eigenvalues are refused (use
    ``eigh`` for symmetric matrices), equal ones make the eigenvectors' derivative
    infinite."""

    sequence_output = True
    torch_name = "LinalgEig"

    def vjp_a(g, ans, a):
        return eig_vjp(g, ans)

    def jvp_a(t, ans, a):
        return eig_jvp(t, ans)


@rule(np.linalg.eigvals)
class eigvals:
    """Real eigenvalues only (see ``eig``)."""

    torch_name = "LinalgEigvals"

    def vjp_a(g, ans, a):
        return eigvals_vjp(g, a)

    def jvp_a(t, ans, a):
        return eigvals_jvp(t, a)


@rule(np.linalg.eigvalsh)
class eigvalsh:
    """Symmetric cotangent (see the module docstring)."""

    torch_name = "LinalgEigvalsh"
    nondiff = ("UPLO",)

    def vjp_a(g, ans, a, UPLO="L"):
        return eigvalsh_vjp(g, a, UPLO=UPLO)

    def jvp_a(t, ans, a, UPLO="L"):
        return eigvalsh_jvp(t, a, UPLO=UPLO)


@rule(np.linalg.lstsq)
class lstsq:
    """``(x, residuals, rank, s)``: ``x = pinv(a) @ b`` (a locally constant rank), the
    residuals (reported for a full column rank and more rows than columns), the integer rank
    (no derivative) and ``a``'s singular values."""

    sequence_output = True
    torch_name = "LinalgLstsq"
    nondiff = ("rcond",)

    def vjp_a(g, ans, a, b, rcond=None):
        return lstsq_vjp_a(g, ans, a, b)

    def vjp_b(g, ans, a, b, rcond=None):
        return lstsq_vjp_b(g, ans, a, b)

    def jvp_a(t, ans, a, b, rcond=None):
        return lstsq_jvp_a(t, ans, a, b)

    def jvp_b(t, ans, a, b, rcond=None):
        return lstsq_jvp_b(t, ans, a, b)


@rule(np.linalg.matrix_power)
class matrix_power:
    """Integer powers, negative ones through the inverse."""

    torch_name = "LinalgMatrixPower"
    nondiff = ("n",)

    def vjp_a(g, ans, a, n):
        return matrix_power_vjp(g, a, n)

    def jvp_a(t, ans, a, n):
        return matrix_power_jvp(t, a, n)


@rule(np.linalg.multi_dot)
class multi_dot:
    """A chain of products; a 1-D first (last) factor is a row (column)."""
    sequence_params = ("arrays",)

    torch_name = "LinalgMultiDot"
    nondiff = ("out",)

    def vjp_arrays(g, ans, arrays, *, out=None):
        return multi_dot_vjp(g, arrays)

    def jvp_arrays(t, ans, arrays, *, out=None):
        return multi_dot_jvp(t, arrays)


@rule(np.linalg.qr)
class qr:
    """``(q, r)`` (or ``r`` with ``mode='r'``) of a full-rank matrix, tall or wide;
    ``mode='complete'`` of a tall matrix (extra columns of ``q`` not unique) and
    ``mode='raw'`` are refused."""

    sequence_output = True
    torch_name = "LinalgQr"
    nondiff = ("mode",)

    def vjp_a(g, ans, a, mode="reduced"):
        return qr_vjp(g, ans, a, mode=mode)

    def jvp_a(t, ans, a, mode="reduced"):
        return qr_jvp(t, ans, a, mode=mode)


# ----------------------------------------- NumPy 2's array-API spellings and vector ufuncs


@rule(getattr(np.linalg, "vector_norm", None))
class vector_norm:
    torch_name = "LinalgVectorNorm"
    nondiff = ("axis", "keepdims")
    unsupported = ("ord",)  # (a float p of a p-norm moves the value: not computed)

    def vjp_x(g, ans, x, *, axis=None, keepdims=False, ord=2):
        return unreduce(g, x, axis=axis, keepdims=keepdims) * vector_norm_derivative(
            x, ans, ord=ord, axis=axis)

    def jvp_x(t, ans, x, *, axis=None, keepdims=False, ord=2):
        return np.sum(t * vector_norm_derivative(x, ans, ord=ord, axis=axis), axis=axis,
                      keepdims=keepdims)


@rule(getattr(np.linalg, "matrix_norm", None))
class matrix_norm:
    """``norm(x, ord, axis=(-2, -1))``."""

    torch_name = "LinalgMatrixNorm"
    nondiff = ("keepdims", "ord")

    def vjp_x(g, ans, x, *, keepdims=False, ord="fro"):
        return unreduce(g, x, axis=(-2, -1), keepdims=keepdims) * norm_derivative(
            x, ans, ord=ord, axis=(-2, -1))

    def jvp_x(t, ans, x, *, keepdims=False, ord="fro"):
        return np.sum(t * norm_derivative(x, ans, ord=ord, axis=(-2, -1)), axis=(-2, -1),
                      keepdims=keepdims)


@rule(getattr(np.linalg, "trace", None))
class linalg_trace:
    """The trace of the matrices in the last two axes."""

    torch_name = "Trace"
    linear = True
    nondiff = ("offset", "dtype")

    def vjp_x(g, ans, x, *, offset=0, dtype=None):
        return undiagonal(np.expand_dims(g, -1), x, offset=offset, axis1=-2, axis2=-1)


@rule(getattr(np.linalg, "diagonal", None))
class linalg_diagonal:
    torch_name = "Diagonal"
    linear = True
    nondiff = ("offset",)

    def vjp_x(g, ans, x, *, offset=0):
        return undiagonal(g, x, offset=offset, axis1=-2, axis2=-1)


@rule(getattr(np, "vecdot", None), getattr(np.linalg, "vecdot", None))
class vecdot:
    """``sum(x1 * x2, axis)`` of real vectors, batch dimensions broadcast."""

    torch_name = "LinalgVecdot"
    nondiff = ("axis",)

    def vjp_x1(g, ans, x1, x2, *, axis=-1):
        return unbroadcast(np.expand_dims(g, axis) * x2, x1)

    def vjp_x2(g, ans, x1, x2, *, axis=-1):
        return unbroadcast(np.expand_dims(g, axis) * x1, x2)

    def jvp_x1(t, ans, x1, x2, *, axis=-1):
        return np.sum(t * x2, axis=axis)

    def jvp_x2(t, ans, x1, x2, *, axis=-1):
        return np.sum(x1 * t, axis=axis)


@rule(getattr(np, "matvec", None))
class matvec:
    """``x1 @ x2`` of stacks of matrices and vectors (batch dimensions broadcast)."""

    torch_name = "Mv"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(np.expand_dims(g, -1) * np.expand_dims(x2, -2), x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(np.vecmat(g, x1), x2)

    def jvp_x1(t, ans, x1, x2):
        return np.matvec(t, x2)

    def jvp_x2(t, ans, x1, x2):
        return np.matvec(x1, t)


@rule(getattr(np, "vecmat", None))
class vecmat:
    """``x1 @ x2`` of stacks of vectors and matrices (batch dimensions broadcast)."""

    torch_name = "Mv"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(np.matvec(x2, g), x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(np.expand_dims(x1, -1) * np.expand_dims(g, -2), x2)

    def jvp_x1(t, ans, x1, x2):
        return np.vecmat(t, x2)

    def jvp_x2(t, ans, x1, x2):
        return np.vecmat(x1, t)


@rule(getattr(np.linalg, "cross", None))
class linalg_cross:
    """``np.cross`` of 3-vectors along ``axis``."""

    torch_name = "LinalgCross"
    nondiff = ("axis",)

    def vjp_x1(g, ans, x1, x2, *, axis=-1):
        return cross_vjp_a(g, x1, x2, axis=axis)

    def vjp_x2(g, ans, x1, x2, *, axis=-1):
        return cross_vjp_b(g, x1, x2, axis=axis)

    def jvp_x1(t, ans, x1, x2, *, axis=-1):
        return np.cross(t, x2, axis=axis)

    def jvp_x2(t, ans, x1, x2, *, axis=-1):
        return np.cross(x1, t, axis=axis)
