"""Every refusal names the construct, points at the user's file and line, quotes the code and
says what to do instead."""

import inspect

import numpy as np
import pytest

import sourcegrad as sg

from . import unsupported

# function -> (text on the offending line, words the message must contain)
CASES = {
    "uses_try": ("try:", "`try`"),
    "uses_with": ("with open", "`with`"),
    "uses_yield": ("yield np.sum", "`yield`"),
    "writes_global": ("global COUNTER", "`global`"),
    "uses_del": ("del y[0]", "`del` of an element"),
    "stores_lambda": ("lambda v", "`lambda`"),
    "defines_class": ("class Box", "class definition"),
    "uses_eval": ("eval(\"np", "`eval`"),
    "star_args": ("def star_args", "`*args`"),
    "star_call": ("np.add(*", "star-unpacking"),
    "for_else": ("for _ in range(3):", "`for ... else`"),
    "walrus": ("(y :=", "walrus"),
    "attribute_store": ("x.flags.writeable", "assigning to an attribute"),
    "nested_import": ("import math", "`import`"),
    "generator_expression": ("sum(v * v for", "generator expression"),
    "writes_through_view": ("v[0] = x[1]", "may be a view of `y`"),
    "recursive": ("def recursive", "a recursive call"),
    "iterates_dict": ("for key in params.keys()", "iterating over a dict"),
    "zips_into_one_name": ("for pair in zip", "this form of `zip`"),
    "calls_nested_badly": ("np.sum(inner(x))", "this call of the nested function `inner`"),
}


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    for offset, line in enumerate(lines):
        if text in line:
            return start + offset, line.strip()
    raise AssertionError(f"{text!r} not in {fn.__name__}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_unsupported_construct_is_reported_where_it_is(name):
    fn = getattr(unsupported, name)
    marker, construct = CASES[name]
    lineno, line = _line_of(fn, marker)
    with pytest.raises(sg.UnsupportedSyntaxError) as info:
        sg.grad(fn)
    err = info.value
    assert isinstance(err, sg.SourcegradError)
    assert err.filename == unsupported.__file__
    assert err.lineno == lineno
    message = str(err)
    assert construct in message
    assert line in message  # the user's code, quoted
    assert f'File "{unsupported.__file__}", line {lineno}' in message
    assert err.advice and err.advice in message  # what to do instead


def test_every_unsupported_function_is_tested():
    functions = {n for n, v in vars(unsupported).items()
                 if inspect.isfunction(v) and v.__module__ == unsupported.__name__}
    assert functions == set(CASES)


def uses_function_without_rule(x):
    return np.sum(np.i0(x))


def test_missing_rule_names_the_function_and_shows_a_stub():
    with pytest.raises(sg.NoDerivativeError) as info:
        sg.grad(uses_function_without_rule)
    message = str(info.value)
    lineno, line = _line_of(uses_function_without_rule, "np.i0(x)")
    assert info.value.lineno == lineno
    assert "`np.i0` has no derivative rule" in message
    assert "@sg.defvjp(np.i0)" in message
    assert "def i0_vjp(g, ans, x):" in message
    assert line in message


def constant_use_of_function_without_rule(x):
    return np.sum(x * np.i0(1.5))


def test_a_call_without_rule_on_constants_needs_no_rule():
    x = np.array([1.0, 2.0])
    np.testing.assert_allclose(sg.grad(constant_use_of_function_without_rule)(x),
                               np.full(2, np.i0(1.5)))


def non_scalar_output(x):
    return x * 2.0


def test_grad_of_non_scalar_output_is_an_error():
    with pytest.raises(TypeError, match="returns a scalar"):
        sg.grad(non_scalar_output)(np.ones(3))


def test_bad_wrt_is_reported():
    with pytest.raises(ValueError, match="no parameter named 'z'"):
        sg.grad(non_scalar_output, wrt="z")
    with pytest.raises(ValueError, match="out of range"):
        sg.grad(non_scalar_output, wrt=3)


def test_lambda_is_refused_with_advice():
    with pytest.raises(sg.UnsupportedSyntaxError, match="Define the function with `def`"):
        sg.grad(lambda x: x * x)


def active_unknown_method(x):
    return np.sum(x.compress([True, False]))


def test_method_without_rule_says_what_to_call_instead():
    with pytest.raises(sg.NoDerivativeError) as info:
        sg.grad(active_unknown_method)
    message = str(info.value)
    assert "the method `.compress()` has no derivative rule" in message
    assert "np.compress(x, ...)" in message
    assert "@sg.defvjp(." not in message
