"""A loop's variable rebound in its body, and a loop over a name the body rebinds: Python
takes the next step from what the loop began with (the range's next value, the sequence
the name held). Desugaring read the loop variable back from the index and indexed the
name's new value: a silent wrong gradient in reverse mode, an IndexError for
``for x in x:``. Each function is checked in every mode against central finite
differences in float64."""

import numpy as np
import pytest

from .fd import assert_every_mode_matches_differences

POINTS = [np.array([0.3, -0.4, 0.8]), np.array([-0.9, 0.25, 0.55])]
DIRECTION = np.array([0.7, -0.2, 0.4])


def range_variable_rebound(x):
    t = 0.0
    for i in range(3):
        i = i * 2
        t = t + x[i // 2] * i
    return t


def range_variable_rebound_after_use(x):
    t = 0.0
    for i in range(3):
        t = t + x[i] ** 2
        i = 2 - i
        t = t + x[i] * t
    return t


def enumerate_index_rebound(x):
    t = 0.0
    for i, v in enumerate(x):
        i = i + 1
        t = t + v * i * x[i - 1]
    return t


def loop_over_its_own_name(x):
    t = 0.0
    for x in x:  # noqa: B020 (the point: the loop iterates over the x it began with)
        t = t + x * x
    return t


def array_rebound_in_the_loop(x):
    a = x * 1.0
    t = 0.0
    for v in a:
        a = a * 2
        t = t + v * np.sum(a)
    return t


def list_rebound_in_the_loop(x):
    a = [x[0], x[1]]
    t = 0.0
    for v in a:
        a = [v * 2, v * 3]
        t = t + v * a[1]
    return t


def dict_rebound_in_a_loop_over_its_items(x):
    d = {"a": x[0], "b": x[1]}
    t = 0.0
    for _key, v in d.items():
        d = {"a": v * 2, "b": v * 3}
        t = t + v * d["b"]
    return t


def dict_rebound_in_a_loop_over_its_values(x):
    d = {"a": x[0], "b": x[1] * x[2]}
    t = 0.0
    for v in d.values():
        d = {"a": v * 2}
        t = t + v * d["a"]
    return t


FUNCTIONS = [dict_rebound_in_a_loop_over_its_items, dict_rebound_in_a_loop_over_its_values,
             range_variable_rebound, range_variable_rebound_after_use,
             enumerate_index_rebound, loop_over_its_own_name, array_rebound_in_the_loop,
             list_rebound_in_the_loop]


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("point", range(len(POINTS)))
def test_every_mode_matches_differences(f, point):
    assert_every_mode_matches_differences(f, POINTS[point].copy(), DIRECTION.copy())
