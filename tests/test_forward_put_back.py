"""Forward mode over a gradient that puts dict entries back: a dict filled by key in a
loop (the character-level RNN's ``hs[t] = ...``, then ``for k in d: d[k] = ...``) makes
the backward sweep save each entry a write replaces (``entry_of``) and restore it
(``put_back(hs, t, old)``, or remove a key that was new). ``sg.hessian`` and ``sg.jvp`` of
``sg.grad`` read that code in forward mode, which refused ``put_back`` as a call for its
side effect. It is now a write in place like ``add_at`` (``activity.writes_in_place``,
shared by every pass that asks what a statement writes), and its tangent is the same call
on tangents: ``put_back(tangent_hs, t, tangent_old)``."""

import numpy as np
import pytest

import sourcegrad as sg
from tests.fd import numerical_grad
from tests.test_pytrees import char_rnn


def char_rnn_rescaled(hprev, Wxh, Whh, Why, inputs, targets):
    """``char_rnn`` whose probabilities are then rescaled key by key."""
    xs, hs, ps = {}, {}, {}
    hs[-1] = np.copy(hprev)
    loss = 0.0
    for t in range(len(inputs)):
        xs[t] = np.zeros(Wxh.shape[1])
        xs[t][inputs[t]] = 1
        hs[t] = np.tanh(Wxh @ xs[t] + Whh @ hs[t - 1])
        ys = Why @ hs[t]
        ps[t] = np.exp(ys) / np.sum(np.exp(ys))
        loss = loss - np.log(ps[t][targets[t]])
    for k in ps:
        ps[k] = ps[k] * hprev[0]
    return loss + np.sum(ps[0] * ps[1])


rng = np.random.default_rng(7)
ARGS = (rng.standard_normal(4), rng.standard_normal((4, 3)) * 0.5,
        rng.standard_normal((4, 4)) * 0.5, rng.standard_normal((3, 4)) * 0.5,
        [0, 2, 1, 1], [2, 1, 0, 2])
FUNCTIONS = [char_rnn, char_rnn_rescaled]


def _with(argnum, value):
    args = list(ARGS)
    args[argnum] = value
    return tuple(args)


def _hessian_by_differences(fn, argnum):
    """Central differences of the gradient (itself checked against differences of ``fn``
    below): one column per element of the argument."""
    grad = sg.grad(fn, wrt=argnum)
    x = ARGS[argnum]
    columns = []
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = 1e-6
        columns.append((grad(*_with(argnum, x + step)) - grad(*_with(argnum, x - step)))
                       / 2e-6)
    return np.moveaxis(np.stack(columns), 0, -1).reshape(x.shape + x.shape)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_the_gradient_puts_entries_back_and_matches_differences(fn):
    assert "put_back(hs, t, " in sg.grad(fn).source
    np.testing.assert_allclose(sg.grad(fn)(*ARGS), numerical_grad(fn, ARGS, 0),
                               rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("argnum", [0, 2], ids=["hprev", "Whh"])
@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_hessian_over_put_back_matches_differences(fn, argnum):
    hessian = sg.hessian(fn, wrt=argnum)(*ARGS)
    np.testing.assert_allclose(hessian, _hessian_by_differences(fn, argnum), rtol=1e-5,
                               atol=1e-6)
    size = ARGS[argnum].size
    flat = hessian.reshape(size, size)
    np.testing.assert_allclose(flat, flat.T, atol=1e-8)  # symmetric


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_jvp_of_the_gradient_matches_differences(fn):
    direction = rng.standard_normal(4)
    grad = sg.grad(fn)
    _, tangent = sg.jvp(grad, ARGS, (direction, None, None, None, None, None))
    expected = (grad(*_with(0, ARGS[0] + 1e-6 * direction))
                - grad(*_with(0, ARGS[0] - 1e-6 * direction))) / 2e-6
    np.testing.assert_allclose(tangent, expected, rtol=1e-5, atol=1e-7)


def test_the_tangent_code_puts_the_tangents_back_in_step():
    source = sg.hessian(char_rnn).source
    assert "put_back(hs, t, " in source and "put_back(tangent_hs, t, " in source
