"""``sink_definitions`` (``passes/schedule.py``): a cotangent is computed just before the
statement that reads it, only where that changes nothing but memory, and generated
gradients stay right."""

import ast

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.codegen.printer import comment, is_comment
from sourcegrad.passes.schedule import sink_definitions

from .fd import assert_close, numerical_grad


def scheduled(code: str, small: frozenset = frozenset()) -> str:
    body = []
    for i, chunk in enumerate(code.split("# ")):
        if i:
            text, _, chunk = chunk.partition("\n")
            body.append(comment(text))
        body.extend(ast.parse(chunk).body)
    out, _ = sink_definitions(body, set(small))
    return "\n".join("# " + s.value.value[2:] if is_comment(s) else ast.unparse(s)
                     for s in out)


def test_a_definition_moves_to_just_before_its_only_reader():
    code = "a = g * u\nb = g * v\nc = b * w\nd = a * c"
    assert scheduled(code, frozenset({"g"})) == "b = g * v\nc = b * w\na = g * u\nd = a * c"


def test_it_moves_after_a_statement_that_lets_an_operand_go():
    # `u` dies at `c = u * w` if `a` stays; moved, `a` takes its place: one array for one
    code = "a = g * u\nc = u * w\nd = a * c"
    assert scheduled(code, frozenset({"g"})) == "c = u * w\na = g * u\nd = a * c"


def test_it_stays_when_moving_would_keep_two_operands_alive():
    code = "a = u * v\nc = u * v\nd = a * c"
    assert scheduled(code) == code


def test_a_smaller_result_keeps_no_operand_alive_for_longer():
    # a sum is smaller than what it sums: keeping `u` alive to sum it later costs memory
    code = "a = np.sum(u)\nc = u * w\nd = a * c"
    assert scheduled(code) == code
    assert scheduled("a = np.sum(u)\nc = u * w\nd = a * c * u") == (
        "c = u * w\na = np.sum(u)\nd = a * c * u")


@pytest.mark.parametrize("between", ["u = h * w", "u += h", "u[0] = h", "x, u = h"])
def test_it_does_not_cross_a_statement_that_changes_an_operand(between):
    code = f"a = g * u\n{between}\nd = a * c"
    assert scheduled(code, frozenset({"g", "u"})) == ast.unparse(ast.parse(code))


@pytest.mark.parametrize("between", ["np.add.at(w, i, h)", "w = s.pop()",
                                     "if p:\n    w = h", "w = backward_f(h)"])
def test_it_does_not_cross_calls_that_may_change_things_or_compound_statements(between):
    code = f"a = g * u\n{between}\nd = a * c"
    assert scheduled(code, frozenset({"g", "u"})) == ast.unparse(ast.parse(code))


def test_it_stays_under_its_own_comment():
    code = "# y = f(x)\na = g * u\nc = u * w\n# x = h(v)\nd = a * c"
    assert scheduled(code, frozenset({"g", "u"})) == code


@pytest.mark.parametrize("definition", ["a = s.pop()", "a = backward_f(g)",
                                        "a = np.random.normal(g)"])
def test_only_pure_expressions_move(definition):
    code = f"{definition}\nc = u * w\nd = a * c"
    assert scheduled(code, frozenset({"g", "u"})) == code


def test_a_name_read_twice_or_assigned_twice_stays():
    assert scheduled("a = g * u\nc = u * w\nd = a * c * a") == (
        "a = g * u\nc = u * w\nd = a * c * a")
    assert scheduled("a = g * u\nc = u * w\nd = a * c\na = g * w\ne = a * d") == (
        "a = g * u\nc = u * w\nd = a * c\na = g * w\ne = a * d")


def windowed_sine(x):
    return np.sum(np.sin(x) * np.exp(-0.5 * x * x))


def test_the_product_rule_halves_are_computed_where_they_are_read():
    source = sg.source(windowed_sine)
    lines = [line.strip() for line in source.splitlines()]
    # the sine's cotangent, read last, is computed last: after the window's chain is done
    # with the values it releases
    sine = lines.index("grad_sin_x = grad_sin_x_times_exp_neg_c * exp_neg_c_times_x_times")
    assert sine == lines.index("grad_x = add_into(grad_x, grad_sin_x * np.cos(x))") - 2
    x = np.linspace(-2.0, 2.0, 7)
    assert_close(sg.grad(windowed_sine)(x), numerical_grad(windowed_sine, (x,), 0))


def windowed_in_a_loop(x, w):
    total = 0.0
    for k in range(3):
        if k % 2 == 0:
            total = total + np.sum(np.sin(x * w) * np.exp(-0.5 * x * x * k))
        else:
            total = total + np.sum(np.cos(x) * np.exp(w * x))
    return total


def test_cotangents_move_inside_loops_and_branches_too():
    lines = [line.strip() for line in sg.source(windowed_in_a_loop, wrt=(0, 1)).splitlines()]
    moved = lines.index("grad_neg_c_times_x = grad_neg_c_times_x_times_x_2 * x")
    assert lines[moved - 1] == (
        "grad_x = add_into(grad_x, grad_neg_c_times_x_times_x_2 * neg_c_times_x)")


@pytest.mark.parametrize("wrt", [0, 1])
def test_gradients_with_moved_cotangents_in_loops_and_branches(wrt):
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal(5), rng.standard_normal(5) * 0.5
    assert_close(sg.grad(windowed_in_a_loop, wrt=wrt)(x, w),
                 numerical_grad(windowed_in_a_loop, (x, w), wrt))
