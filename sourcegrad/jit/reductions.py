"""NumPy reductions over one axis, as a function Numba has a form of.

Numba compiles ``np.max(x)`` but not ``np.max(x, axis=1)``, nor ``keepdims`` for any
reduction. The specialiser, writing code for Numba, turns such a call (the axis and
``keepdims`` known) into ``reduce_along(x, axis, keepdims, "max")``, whose Numba form
(``forms.py``) reduces each line of the array along the axis with the one-dimensional
reduction Numba has. In Python it is the NumPy call itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# the reductions taken over, by the name ``reduce_along`` is given
NAMES = {np.sum: "sum", np.mean: "mean", np.max: "max", np.amax: "max", np.min: "min",
         np.amin: "min", np.prod: "prod", np.any: "any", np.all: "all"}


def reduce_along(x: Any, axis: int, keepdims: bool, how: str) -> Any:
    """``np.<how>(x, axis=axis, keepdims=keepdims)``."""
    return getattr(np, how)(x, axis=axis, keepdims=keepdims)


def numba_lacks(how: str, keepdims: bool) -> bool:
    """Does Numba lack this reduction over an axis (it has ``np.sum`` without keepdims)?"""
    return keepdims or how != "sum"
