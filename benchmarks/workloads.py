"""The six workloads of the table: inputs (float64, fixed seeds), the NumPy forward
function every peer differentiates, its hand-written gradient, and its PyTorch-style form."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchmarks import functions, torch_style
from samples import logistic_regression, mlp, rnn


@dataclass(frozen=True)
class Workload:
    name: str
    forward: Callable[..., float]
    grad_by_hand: Callable[..., object]
    make_args: Callable[[], tuple]
    wrt: tuple[int, ...]
    torch_style: Callable[..., object]
    array_workload: bool  # the 1.25x-of-hand-written target applies


def _logistic_regression_args() -> tuple:
    return (*logistic_regression.init_params(100), *logistic_regression.make_data(1000, 100))


def _mlp_args() -> tuple:
    return (*mlp.init_params(784, 256, 10), *mlp.make_data(256, 784, 10))


def _rnn_args() -> tuple:
    return (*rnn.init_params(8, 32, 1), *rnn.make_data(50, 8, 8))


def _chain_args() -> tuple:
    return (np.random.default_rng(0).uniform(-1.0, 1.0, 10),)


def _scalar_args() -> tuple:
    return (0.7,)


def _reduction_args() -> tuple:
    return (np.random.default_rng(0).standard_normal(1_000_000),)


WORKLOADS = (
    Workload(
        "logistic regression 1000x100", logistic_regression.loss,
        logistic_regression.loss_grad_by_hand, _logistic_regression_args, (0, 1),
        torch_style.logistic_regression, True,
    ),
    Workload(
        "MLP 784-256-10, batch 256", mlp.loss, mlp.loss_grad_by_hand, _mlp_args, (0, 1, 2, 3),
        torch_style.mlp, True,
    ),
    Workload(
        "RNN 50 steps, hidden 32, batch 8", rnn.loss, rnn.loss_grad_by_hand, _rnn_args,
        (0, 1, 2), torch_style.rnn, True,
    ),
    Workload(
        "100-op chain, 10 elements", functions.chain, functions.chain_grad_by_hand,
        _chain_args, (0,), torch_style.chain, False,
    ),
    Workload(
        "scalar loop, 1000 steps", functions.scalar_loop, functions.scalar_loop_grad_by_hand,
        _scalar_args, (0,), torch_style.scalar_loop, False,
    ),
    Workload(
        "1e6-element reduction", functions.reduction, functions.reduction_grad_by_hand,
        _reduction_args, (0,), torch_style.reduction, True,
    ),
)
