"""The loop workloads written as JAX users write them for ``jax.jit``: the loop as
``lax.fori_loop`` / ``lax.scan``, so that XLA compiles one loop body instead of an unrolled
trace of every step. Each function takes ``jax.numpy`` and ``jax.lax`` and returns the
forward function to differentiate; it computes what the NumPy forward of the same workload
computes (checked against the hand-written gradient before it is timed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from benchmarks.functions import CHAIN_ROUNDS, SCALAR_STEPS


def scalar_loop(jnp: Any, lax: Any) -> Callable:
    def loss(x):
        return lax.fori_loop(0, SCALAR_STEPS, lambda _, x: x * 0.99 + jnp.sin(x) * 0.01, x)

    return loss


def chain(jnp: Any, lax: Any) -> Callable:
    def round_(_, x):
        return jnp.exp(jnp.tanh(x) * 1.5) - 1.0

    def loss(x):
        return jnp.sum(lax.fori_loop(0, CHAIN_ROUNDS, round_, x))

    return loss


def rnn(jnp: Any, lax: Any) -> Callable:
    def loss(Wxh, Whh, Why, xs, ys):
        def step(h, x):
            return jnp.tanh(x @ Wxh + h @ Whh), None

        h, _ = lax.scan(step, jnp.zeros((xs.shape[1], Whh.shape[0])), xs)
        prediction = h @ Why
        return jnp.mean((prediction - ys) ** 2)

    return loss


# workload name -> its loop form (the workloads without a loop have none)
LOOPS = {
    "RNN 50 steps, hidden 32, batch 8": rnn,
    "100-op chain, 10 elements": chain,
    "scalar loop, 1000 steps": scalar_loop,
}
