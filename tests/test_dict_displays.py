"""A dict display whose keys may repeat (``{"a": u, "a": v}``, ``{"b": u, k: v}`` with ``k``
equal to ``"b"``): Python keeps the last value of a repeated key. Reverse mode gave each
value the entry's cotangent (a silent wrong gradient, also through the runtime's
``.backward()``). Each function is checked in every mode against central finite
differences in float64."""

import numpy as np
import pytest

from .fd import assert_every_mode_matches_differences

POINTS = [np.array([0.3, -0.4, 0.8]), np.array([0.9, 0.25, 0.55])]
DIRECTION = np.array([0.7, -0.2, 0.4])


def repeated_key(x):
    d = {"a": x[0] * 2, "a": x[1]}  # noqa: F601 (the point: the last value is kept)
    return d["a"] * x[2]


def computed_key_equal_to_another(x):
    k = "b"
    d = {"a": x[0], "b": x[1] * 3, k: x[2]}
    return d["b"] * x[0]


def computed_key_in_a_loop(x):
    t = 0.0
    for k in ["a", "b"]:
        d = {"a": x[0], "b": x[1] * 3, k: x[2]}
        t = t + d["b"] * x[0] + d["a"]
    return t


def values_read_the_old_dict(x):
    d = {"a": x[0], "b": x[1]}
    for k in ["b", "c"]:
        d = {"a": d["a"] * 2, "b": d["b"] * x[2], k: d["a"] + x[1]}
    return d["a"] * d["b"] + d["c"]


def distinct_keys(x):
    d = {"a": x[0], "b": x[1] ** 2}
    return d["a"] * d["b"] * x[2]


FUNCTIONS = [repeated_key, computed_key_equal_to_another, computed_key_in_a_loop,
             values_read_the_old_dict, distinct_keys]


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("point", range(len(POINTS)))
def test_every_mode_matches_differences(f, point):
    assert_every_mode_matches_differences(f, POINTS[point].copy(), DIRECTION.copy())
