"""Complex numbers and the FFT family.

sourcegrad differentiates real-valued functions of real inputs that pass through complex
intermediates (``np.abs(np.fft.fft(x))``, ``np.real(np.fft.ifft(s * np.fft.fft(x)))``), with
JAX's convention: the cotangent ``c`` of a complex value pairs with a tangent ``t`` as
``Re(sum(c * t))``, without a conjugate. Under it the rules of holomorphic functions (the
arithmetic, ``exp``, ``sum``, ``matmul``, reshapes and indexing...) hold for complex values as
they are written for real ones; the functions that are not holomorphic (``real``, ``imag``,
``conj``, ``angle``, ``abs``) have rules of their own below, and a real value's cotangent is
the real part of what reaches it (``support.unbroadcast``, ``as_gradient``). The
decompositions and norms whose formulas hold for real matrices only refuse complex ones.
The gradient of a function of a complex argument is the conjugate of PyTorch's, as in JAX.
"""

import numpy as np

from .registry import nondifferentiable, rule
from .support import (
    angle_jvp,
    angle_vjp,
    fft_vjp,
    fftn_vjp,
    imag_jvp,
    imag_vjp,
    irfft_vjp,
    irfftn_vjp,
    rfft_vjp,
    rfftn_vjp,
    swapped_norm,
)

# ---------------------------------------------------------------------- complex numbers


@rule(np.real)
class real:
    """The real part (the identity on real values); the cotangent's real part passes."""

    torch_name = "Real"
    linear = True

    def vjp_val(g, ans, val):
        return np.real(g)


@rule(np.imag)
class imag:
    torch_name = "Imag"

    def vjp_val(g, ans, val):
        return imag_vjp(g, val)

    def jvp_val(t, ans, val):
        return imag_jvp(t, val)


@rule(np.conjugate, np.conj)
class conjugate:
    """Real-linear, not complex-linear: its transpose is itself."""

    torch_name = "Conj"
    linear = True

    def vjp_x(g, ans, x):
        return np.conj(g)


@rule(np.angle)
class angle:
    """The argument of a complex number; piecewise constant on real values."""

    torch_name = "Angle"
    nondiff = ("deg",)

    def vjp_z(g, ans, z, deg=False):
        return angle_vjp(g, z, deg=deg)

    def jvp_z(t, ans, z, deg=False):
        return angle_jvp(t, z, deg=deg)


# ------------------------------------------------------------------------------- np.fft
# Every transform is linear (its tangent is the transform of the tangent); the full complex
# transforms are symmetric matrices, so their transposes are themselves.


@rule(np.fft.fft)
class fft:
    torch_name = "FftC2c"
    linear = True
    nondiff = ("n", "axis", "norm", "out")

    def vjp_a(g, ans, a, n=None, axis=-1, norm=None, out=None):
        return fft_vjp(g, a, n, axis, norm)


@rule(np.fft.ifft)
class ifft:
    torch_name = "FftC2c"
    linear = True
    nondiff = ("n", "axis", "norm", "out")

    def vjp_a(g, ans, a, n=None, axis=-1, norm=None, out=None):
        return fft_vjp(g, a, n, axis, norm, inverse=True)


@rule(np.fft.fftn)
class fftn:
    torch_name = "FftC2c"
    linear = True
    nondiff = ("s", "axes", "norm", "out")

    def vjp_a(g, ans, a, s=None, axes=None, norm=None, out=None):
        return fftn_vjp(g, a, s, axes, norm)


@rule(np.fft.ifftn)
class ifftn:
    torch_name = "FftC2c"
    linear = True
    nondiff = ("s", "axes", "norm", "out")

    def vjp_a(g, ans, a, s=None, axes=None, norm=None, out=None):
        return fftn_vjp(g, a, s, axes, norm, inverse=True)


@rule(np.fft.fft2)
class fft2:
    torch_name = "FftC2c"
    linear = True
    nondiff = ("s", "axes", "norm", "out")

    def vjp_a(g, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
        return fftn_vjp(g, a, s, axes, norm)


@rule(np.fft.ifft2)
class ifft2:
    torch_name = "FftC2c"
    linear = True
    nondiff = ("s", "axes", "norm", "out")

    def vjp_a(g, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
        return fftn_vjp(g, a, s, axes, norm, inverse=True)


@rule(np.fft.rfft)
class rfft:
    """The half spectrum of a real signal."""

    torch_name = "FftR2c"
    linear = True
    nondiff = ("n", "axis", "norm", "out")

    def vjp_a(g, ans, a, n=None, axis=-1, norm=None, out=None):
        return rfft_vjp(g, a, n, axis, norm)


@rule(np.fft.irfft)
class irfft:
    """The real signal of a half spectrum (the imaginary parts of its zero and Nyquist
    frequencies are ignored, so their cotangent is 0)."""

    torch_name = "FftC2r"
    linear = True
    nondiff = ("n", "axis", "norm", "out")

    def vjp_a(g, ans, a, n=None, axis=-1, norm=None, out=None):
        return irfft_vjp(g, a, n, axis, norm)


@rule(np.fft.rfftn)
class rfftn:
    torch_name = "FftR2c"
    linear = True
    nondiff = ("s", "axes", "norm", "out")

    def vjp_a(g, ans, a, s=None, axes=None, norm=None, out=None):
        return rfftn_vjp(g, a, s, axes, norm)


@rule(np.fft.irfftn)
class irfftn:
    torch_name = "FftC2r"
    linear = True
    nondiff = ("s", "axes", "norm", "out")

    def vjp_a(g, ans, a, s=None, axes=None, norm=None, out=None):
        return irfftn_vjp(g, a, s, axes, norm)


@rule(np.fft.rfft2)
class rfft2:
    torch_name = "FftR2c"
    linear = True
    nondiff = ("s", "axes", "norm", "out")

    def vjp_a(g, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
        return rfftn_vjp(g, a, s, axes, norm)


@rule(np.fft.irfft2)
class irfft2:
    torch_name = "FftC2r"
    linear = True
    nondiff = ("s", "axes", "norm", "out")

    def vjp_a(g, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
        return irfftn_vjp(g, a, s, axes, norm)


@rule(np.fft.hfft)
class hfft:
    """``irfft(conj(a))`` with the normalization's direction swapped."""

    torch_name = "FftC2r"
    linear = True
    nondiff = ("n", "axis", "norm", "out")

    def vjp_a(g, ans, a, n=None, axis=-1, norm=None, out=None):
        return np.conj(irfft_vjp(g, a, n, axis, swapped_norm(norm)))


@rule(np.fft.ihfft)
class ihfft:
    """``conj(rfft(a))`` with the normalization's direction swapped."""

    torch_name = "FftR2c"
    linear = True
    nondiff = ("n", "axis", "norm", "out")

    def vjp_a(g, ans, a, n=None, axis=-1, norm=None, out=None):
        return rfft_vjp(np.conj(g), a, n, axis, swapped_norm(norm))


@rule(np.fft.fftshift)
class fftshift:
    torch_name = "Roll"
    linear = True
    nondiff = ("axes",)

    def vjp_x(g, ans, x, axes=None):
        return np.fft.ifftshift(g, axes=axes)


@rule(np.fft.ifftshift)
class ifftshift:
    torch_name = "Roll"
    linear = True
    nondiff = ("axes",)

    def vjp_x(g, ans, x, axes=None):
        return np.fft.fftshift(g, axes=axes)


@rule(np.fft.fftfreq, np.fft.rfftfreq)
class fftfreq:
    """``k / (n * d)``: the sample spacing ``d`` is differentiable."""

    torch_name = "FftFreq"
    nondiff = ("n", "device")

    def vjp_d(g, ans, n, d=1.0, device=None):
        return -np.sum(g * ans) / d

    def jvp_d(t, ans, n, d=1.0, device=None):
        return -ans * (t / d)


nondifferentiable(np.iscomplexobj, np.isrealobj, reason="booleans")
