"""Derivative of reading a subscript, ``x[index]`` (``operator.getitem``).

The cotangent of ``x`` scatters ``g`` back to the positions that were read, adding where an
advanced index reads the same position twice: ``ungather`` over the flat positions read does
that for integer, slice, mask and fancy indices alike (complex cotangents too).
"""

import operator

from .registry import rule
from .support import positions_of, ungather


@rule(operator.getitem)
class getitem:
    torch_name = "Index"
    linear = True
    nondiff = ("index",)

    def vjp_x(g, ans, x, index):
        return ungather(g, x, positions_of(x)[index])
