"""The six workloads of the table: inputs (float64, fixed seeds), the NumPy forward
function every peer differentiates, its hand-written gradient, and its PyTorch-style form."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchmarks import functions, torch_style
from samples import logistic_regression, mlp, rnn


def _unchanged(*args):
    return args


@dataclass(frozen=True)
class Workload:
    name: str
    forward: Callable[..., float]
    grad_by_hand: Callable[..., object]
    make_args: Callable[[], tuple]
    wrt: tuple[int, ...]
    torch_style: Callable[..., object]
    array_workload: bool  # the 1.25x-of-hand-written target applies
    torch_style_args: Callable[..., tuple] = _unchanged  # the forward's args -> its args
    # issue 14 compares with a careful hand-written gradient (one a person writes after
    # thinking: softmax - Y, weight gradients as one product over all steps) and with a
    # straightforward one (the chain rule transcribed step by step): which ``grad_by_hand``
    # is, and the careful one beside it where it is the straightforward one
    careful: bool = True
    careful_grad_by_hand: Callable[..., object] | None = None


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
        name="logistic regression 1000x100",
        forward=logistic_regression.loss,
        grad_by_hand=logistic_regression.loss_grad_by_hand,
        make_args=_logistic_regression_args,
        wrt=(0, 1),
        torch_style=torch_style.logistic_regression,
        array_workload=True,
    ),
    Workload(
        name="MLP 784-256-10, batch 256",
        forward=mlp.loss,
        grad_by_hand=mlp.loss_grad_by_hand,
        make_args=_mlp_args,
        wrt=(0, 1, 2, 3),
        torch_style=torch_style.mlp,
        array_workload=True,
        torch_style_args=torch_style.mlp_args,
    ),
    Workload(
        name="RNN 50 steps, hidden 32, batch 8",
        forward=rnn.loss,
        grad_by_hand=rnn.loss_grad_by_hand,
        make_args=_rnn_args,
        wrt=(0, 1, 2),
        torch_style=torch_style.rnn,
        array_workload=True,
        careful=False,
        careful_grad_by_hand=rnn.loss_grad_by_hand_batched,
    ),
    Workload(
        name="100-op chain, 10 elements",
        forward=functions.chain,
        grad_by_hand=functions.chain_grad_by_hand,
        make_args=_chain_args,
        wrt=(0,),
        torch_style=torch_style.chain,
        array_workload=False,
    ),
    Workload(
        name="scalar loop, 1000 steps",
        forward=functions.scalar_loop,
        grad_by_hand=functions.scalar_loop_grad_by_hand,
        make_args=_scalar_args,
        wrt=(0,),
        torch_style=torch_style.scalar_loop,
        array_workload=False,
    ),
    Workload(
        name="1e6-element reduction",
        forward=functions.reduction,
        grad_by_hand=functions.reduction_grad_by_hand,
        make_args=_reduction_args,
        wrt=(0,),
        torch_style=torch_style.reduction,
        array_workload=True,
    ),
)
