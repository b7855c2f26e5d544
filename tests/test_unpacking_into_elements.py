"""Elements and slices written by an unpacking or a chained assignment, and an index read
from a name assigned twice: found by probes (a NameError in every mode before the fix).

``a[0], a[1] = a[1], a[0] * 2`` renamed its targets as if they were names
(``a_2[0], a_3[1] = ...``), and ``i = 0; i = 2; a[i] = v`` renamed the ``i`` its index
reads as if the statement assigned it; each is checked against central differences in
every mode (grad, jvp, the runtime's ``.backward()``), with Python's order of writes."""

import numpy as np
import pytest

import sourcegrad as sg
from tests.fd import assert_close, assert_every_mode_matches_differences, numerical_grad


def swap_elements(x):
    a = x.copy()
    a[0], a[1] = a[1], a[0] * 2
    return np.sum(a ** 2 * np.arange(1.0, 4.0))


def swap_list_items(x):
    items = [x[0], x[1]]
    items[0], items[1] = items[1], items[0] * 2
    return items[0] * items[1] ** 2


def slice_and_element(x):
    a = x.copy()
    a[0:2], a[2] = x[1:] ** 2, x[0] * 5
    return np.sum(a ** 2 * np.arange(1.0, 4.0))


def index_assigned_before_in_the_same_unpacking(x):
    a = x.copy()
    i = 0
    i, a[i] = 2, x[1] ** 2  # Python writes a[2]: `i` is bound first
    return np.sum(a ** 2 * np.arange(1.0, 4.0))


def nested_unpacking_in_order(x):
    a = x.copy()
    i = 0
    (a[i], i), a[i] = (x[0] * 3, 2), x[2] ** 3  # a[0], then i, then a[2]
    return np.sum(a ** 2 * np.arange(1.0, 4.0))


def same_element_twice(x):
    a = x.copy()
    a[0], a[0] = x[1] * 7, x[2] ** 2  # the last write stays
    return np.sum(a ** 2 * np.arange(1.0, 4.0))


def chained_element_targets(x):
    a = x.copy()
    b = np.zeros(3)
    a[0] = b[1] = x[2] ** 2
    c = d = x[1] * 2
    return np.sum(a ** 2 * np.arange(1.0, 4.0)) + np.sum(b * x) + c * d


def index_name_assigned_twice(x):
    a = x.copy()
    i = 0
    i = 2
    a[i] = x[1] ** 2
    return np.sum(a ** 2 * np.arange(1.0, 4.0))


def index_name_assigned_twice_read_after(x):
    a = np.zeros(4)
    j = 1
    a[j] = x[0] * x[1]
    j = j + 2
    a[j] = np.sin(x[2])
    a[j - 1] = a[j] * a[j - 2]
    return np.sum(a * np.arange(1.0, 5.0))


PROGRAMS = [swap_elements, swap_list_items, slice_and_element,
            index_assigned_before_in_the_same_unpacking, nested_unpacking_in_order,
            same_element_twice, chained_element_targets, index_name_assigned_twice,
            index_name_assigned_twice_read_after]


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_every_mode_matches_differences(f):
    x = np.array([0.3, -1.2, 0.7])
    assert_every_mode_matches_differences(f, x, np.array([0.5, -0.25, 1.0]))


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_hessian_matches_differences_of_the_gradient(f):
    x = np.array([0.3, -1.2, 0.7])
    expected = np.stack([numerical_grad(lambda v, i=i: sg.grad(f)(v)[i], (x,), 0)
                         for i in range(3)])
    assert_close(sg.hessian(f)(x), expected, rtol=1e-4, atol=1e-5)


def test_a_chained_assignment_gives_each_target_the_value_itself():
    # read back from the int array, the float was truncated for the next target
    def f(x):
        counts = np.zeros(2, dtype=int)
        y = np.zeros(2)
        counts[0] = y[0] = x[0] * 2.5
        return np.sum(y * x)

    x = np.array([1.3, 0.4])
    value, gradient = sg.value_and_grad(f)(x)
    assert_close(value, 2.5 * 1.3 ** 2)
    assert_close(gradient, numerical_grad(f, (x,), 0))
