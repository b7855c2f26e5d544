"""Derivative of reading a subscript, ``x[index]`` (``operator.getitem``).

The cotangent of ``x`` scatters ``g`` back to the positions that were read, adding where an
advanced index reads the same position twice: ``bincount`` over the flat positions does
that in one expression, for integer, slice, mask and fancy indices alike.
"""

import operator

import numpy as np

from .registry import rule


@rule(operator.getitem)
class getitem:
    torch_name = "Index"
    linear = True
    nondiff = ("index",)

    def vjp_x(g, ans, x, index):
        return np.reshape(
            np.bincount(np.ravel(np.reshape(np.arange(np.size(x)), np.shape(x))[index]),
                        weights=np.ravel(g), minlength=np.size(x)),
            np.shape(x)).astype(np.result_type(g))
