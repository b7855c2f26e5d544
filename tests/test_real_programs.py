"""The real programs of ``benchmarks/programs/`` (issue 14): each hand-written backward is
checked against central finite differences, and ``sg.grad`` against the hand-written
backward, on small sizes; the benchmark (``benchmarks/real_programs.py``) times them."""

import inspect

import numpy as np
import pytest

import sourcegrad as sg
from benchmarks.programs import PROGRAMS, logistic

from .fd import assert_tree_close, tree_numerical_grad

BY_NAME = {program.__name__.rsplit(".", 1)[1]: program for program in PROGRAMS}


def positions(program):
    params = list(inspect.signature(program.loss).parameters)
    return [params.index(name) for name in program.WRT]


def hand_written_gradients(program, args):
    _, grads = program.loss_and_grad_by_hand(*args)
    return list(grads)


def sourcegrad_gradients(program, args):
    return list(sg.grad(program.loss, wrt=program.WRT)(*args))  # wrt a tuple: a tuple


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_hand_written_backward_matches_central_differences(name):
    program = BY_NAME[name]
    args = program.make_args(small=True)
    for gradient, position in zip(hand_written_gradients(program, args), positions(program),
                                  strict=True):
        expected = tree_numerical_grad(program.loss, args, position)
        assert_tree_close(gradient, expected, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_sg_grad_matches_the_hand_written_backward(name):
    program = BY_NAME[name]
    args = program.make_args(small=True)
    expected = hand_written_gradients(program, args)
    assert_tree_close(sourcegrad_gradients(program, args), expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_sg_grad_matches_central_differences(name):
    program = BY_NAME[name]
    args = program.make_args(small=True)
    for gradient, position in zip(sourcegrad_gradients(program, args), positions(program),
                                  strict=True):
        expected = tree_numerical_grad(program.loss, args, position)
        assert_tree_close(gradient, expected, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("intercept", [True, False])
def test_logistic_loss_both_branches_of_the_intercept(intercept):
    args = logistic.make_args(small=True, intercept=intercept)
    got = sg.grad(logistic.loss, wrt="w")(*args)
    _, (expected,) = logistic.loss_and_grad_by_hand(*args)
    assert_tree_close(got, expected, rtol=1e-9, atol=1e-12)
    assert_tree_close(got, tree_numerical_grad(logistic.loss, args, 0), rtol=1e-5, atol=1e-7)


def test_word2vec_small_case_repeats_a_negative_sample():
    """The repeated rows are where a row-wise update by assignment would lose gradient."""
    _, _, _, _, negatives = BY_NAME["word2vec"].make_args(small=True)
    assert any(len(set(rows.tolist())) < len(rows) for per_word in negatives
               for rows in per_word)


def test_real_programs_benchmark_checks_and_reports_a_program():
    from benchmarks import real_programs
    from benchmarks.report import Notes
    from benchmarks.timing import Budget

    tiny = Budget(repeats=1, batch_seconds=0.0, seconds_per_function=0.0)
    results = real_programs.measure_all(tiny, "batch norm", progress=lambda m: None)
    assert [r.name for r in results] == [BY_NAME["batchnorm"].NAME]
    assert "sg.grad" in results[0].ratios and np.isfinite(results[0].ratios["sg.grad"])
    assert BY_NAME["batchnorm"].NAME in real_programs.markdown(results, Notes())
