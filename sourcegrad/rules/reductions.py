"""Derivatives of reductions (sum, mean, max, ...), with ``axis`` and ``keepdims``."""

import numpy as np

from .registry import rule
from .support import reduced_count, unreduce


@rule(np.sum)
class sum:
    torch_name = "Sum"
    linear = True
    nondiff = ("axis", "dtype", "keepdims")

    def vjp_a(g, ans, a, axis=None, dtype=None, keepdims=False):
        return unreduce(g, a, axis=axis, keepdims=keepdims)


@rule(np.mean)
class mean:
    torch_name = "Mean"
    linear = True
    nondiff = ("axis", "dtype", "keepdims")

    def vjp_a(g, ans, a, axis=None, dtype=None, keepdims=False):
        return unreduce(g, a, axis=axis, keepdims=keepdims) / reduced_count(a, ans)
