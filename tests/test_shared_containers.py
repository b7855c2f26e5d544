"""One list or dict under two names, a tangent shared with an element, a default computed
when its ``def`` runs: each was a silent wrong derivative in at least one mode. Each
function here is either checked in every mode against finite differences, or refused with
an error that names the line."""

import numpy as np
import pytest

import sourcegrad as sg

from .fd import assert_every_mode_matches_differences

X = np.array([0.3, -0.4])
DIRECTION = np.array([0.7, -0.2])


def assert_every_mode_right(f):
    assert_every_mode_matches_differences(f, X.copy(), DIRECTION.copy())


# -- an element's tangent may be another value's: `a[0] += v` must not change it in place --
def list_element_updated(x):
    a = [x * 1.0, x * 2.0]
    a[0] += x ** 2
    a[1] *= x
    return np.sum(a[0] + a[1])


def list_element_decreased(x):
    a = [x / 1.0]
    a[0] -= x ** 2
    return np.sum(a[0] * x)


def dict_element_updated(x):
    d = {"a": x * 1.0, "b": x * 3.0}
    d["a"] += x ** 2
    return np.sum(d["a"] * x * d["b"])


# -- a nested function's default is computed when the `def` runs --------------------------
def default_of_a_nested_function(x):
    a = x * 2
    def scaled(y, s=a):
        return y * s
    a = x * 3
    return np.sum(scaled(x) * a)


def default_of_a_lambda(x):
    a = x * 2
    scaled = lambda y, s=a: y * s  # noqa: E731
    a = np.sin(x)
    return np.sum(scaled(x) * a)


def constant_default(x):
    def scaled(y, s=3.0):
        return y * s
    return np.sum(scaled(x) ** 2)


# -- one list, two names, but no change is seen under the other name ----------------------
def changed_before_the_second_name(x):
    a = []
    a.append(x)
    b = a
    b.append(x * 2)
    return np.sum(b[1] * b[0])


def copy_then_changed(x):
    a = [x, x * 2]
    b = list(a)
    b.append(x * 3)
    return np.sum(a[-1] * x) + np.sum(b[-1])


def returned_early_from_a_loop(x):
    outs = []
    for i in range(3):
        outs.append(x * i)
        if i == 1:
            return np.sum(outs[-1] * x)
    return np.sum(outs[0])


def build(x):
    outs = []
    for i in range(3):
        outs.append(x * i)
        if i == 1:
            return outs
    return outs


def calls_a_function_returning_its_list_early(x):
    o = build(x)
    return np.sum(o[1] * x)


@pytest.mark.parametrize("f", [
    list_element_updated, list_element_decreased, dict_element_updated,
    default_of_a_nested_function, default_of_a_lambda, constant_default,
    changed_before_the_second_name, copy_then_changed, returned_early_from_a_loop,
    calls_a_function_returning_its_list_early], ids=lambda f: f.__name__)
def test_every_mode_agrees_with_finite_differences(f):
    assert_every_mode_right(f)


# -- one list, two names, a change seen under the other: refused ---------------------------
def appended_under_another_name(x):
    a = [x, x * 2]
    b = a
    b.append(x * 3)
    return np.sum(a[2] * x)


def appended_then_read_under_another_name(x):
    a = [x, x * 2]
    b = a
    a.append(x * 3)
    return np.sum(b[2] * x)


def popped_under_another_name(x):
    a = [x, x * 2]
    b = a
    b.pop()
    return np.sum(a[-1] * x)


def element_written_then_read_under_another_name(x):
    a = [x, x * 2]
    b = a
    a[0] = x * 5
    return np.sum(b[0] * x)


def dict_entry_written_then_read_under_another_name(x):
    a = {"p": x}
    b = a
    a["p"] = x * 5
    return np.sum(b["p"] * x)


def appended_in_a_loop_under_another_name(x):
    acc = []
    cur = acc
    for i in range(2):
        cur.append(x * i)
    return np.sum(acc[1] * x)


def nested_function_appends_to_its_argument(x):
    acc = []
    def push(lst, v):
        lst.append(v)
    push(acc, x * 2)
    return np.sum(acc[0] * x)


REFUSED = [appended_under_another_name, appended_then_read_under_another_name,
           popped_under_another_name, element_written_then_read_under_another_name,
           dict_entry_written_then_read_under_another_name,
           appended_in_a_loop_under_another_name, nested_function_appends_to_its_argument]


@pytest.mark.parametrize("f", REFUSED, ids=lambda f: f.__name__)
@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_a_change_seen_under_another_name_is_refused(f, mode):
    with pytest.raises(sg.UnsupportedSyntaxError, match="names the same list or dict") as error:
        sg.source(f, mode=mode)
    assert error.value.filename == __file__
    assert "list(...)" in str(error.value)


# -- a module-level function called with a list changes the caller's list ------------------
def pushes(v, acc):
    acc.append(v * 2)
    return np.sum(v)


def pops(acc):
    last = acc.pop()
    return np.sum(last)


def helper_appends_to_the_callers_list(x):
    acc = [x]
    s = pushes(x, acc)
    return s * np.sum(acc[1] * acc[0])


def helper_fills_an_empty_list(x):
    acc = []
    s = pushes(x, acc)
    return s * np.sum(acc[0])


def helper_pops_from_the_callers_list(x):
    acc = [x, x ** 2]
    s = pops(acc)
    return s * np.sum(acc[-1])


@pytest.mark.parametrize("f", [helper_appends_to_the_callers_list, helper_fills_an_empty_list,
                               helper_pops_from_the_callers_list], ids=lambda f: f.__name__)
def test_a_helper_changing_its_callers_list_is_refused_in_every_mode(f):
    for run in (lambda: sg.grad(f)(X), lambda: sg.jvp(f, (X,), (DIRECTION,)),
                lambda: sg.differentiable(f)(sg.tensor(X, requires_grad=True))):
        with pytest.raises(sg.UnsupportedSyntaxError, match="given by the function that calls"
                           ) as error:
            run()
        assert error.value.filename == __file__
        assert "list(" in str(error.value)


def helper_appends_to_its_own_list(v):
    acc = [v]
    acc.append(v * 2)
    return np.sum(acc[1] * acc[0])


def calls_a_helper_with_its_own_list(x):
    return helper_appends_to_its_own_list(x) * np.sum(x)


def test_a_helper_changing_its_own_list_is_differentiated():
    assert_every_mode_right(calls_a_helper_with_its_own_list)
