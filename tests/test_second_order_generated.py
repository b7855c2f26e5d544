"""Derivatives of derivatives: the constructs sourcegrad's generated code is made of, each
differentiated again (issue 13, section 2), in the three combinations: reverse over reverse,
forward over reverse, reverse over forward (and forward over forward), against central
differences of the first derivative."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import check_grads

rng = np.random.default_rng(13)


def check_second_order(f, args):
    """Every combination of two modes on ``f`` at ``args``: ``check_grads`` of order 2 runs
    forward and reverse mode over ``jvp_f``; forward and reverse mode over ``grad_f`` (of
    each float argument) complete the four."""
    assert check_grads(f, args, modes=("fwd", "rev"), order=2)
    for i, a in enumerate(args):
        if isinstance(a, float) or isinstance(a, np.ndarray) and a.dtype.kind == "f":
            assert check_grads(sg.grad(f, wrt=i), args, modes=("fwd", "rev"), order=1)


def fancy_rows_and_slices(x):
    return np.sum(x[[0, 1, 2], :, :] ** 3)


def repeated_fancy_index(x):
    return np.sum(x[[0, 0, 2]] ** 3)


def fancy_index_with_ellipsis(x):
    return np.sum(np.sin(x[..., [1, 1]]) * x[..., :2])


@pytest.mark.parametrize("f", [fancy_rows_and_slices, repeated_fancy_index,
                               fancy_index_with_ellipsis])
def test_fancy_indices_with_slices_differentiate_twice(f):
    """The adjoint of a fancy read is ``np.add.at(grad, index, g)``, whose index cannot spell
    ``:`` (a SyntaxError in grad_f itself); reverse mode over that ``np.add.at`` ignored it
    (a zero second derivative)."""
    check_second_order(f, [rng.standard_normal((4, 3, 2))])
