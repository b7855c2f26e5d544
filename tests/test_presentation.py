"""What a derivative shows of itself (CONTRACT 2a): a ``repr`` naming the user's function,
and in a notebook (``_repr_html_``) its generated source, highlighted, provenance comments
dimmed; and that being shown so changes nothing in how it is called, read or debugged."""

import functools
import html
import inspect
import re
import sys
import traceback

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad import presentation
from sourcegrad.frontend import forms


def loss(w, b):
    return np.sum(np.tanh(w) * b)


def with_aux(w, b):
    return np.sum(w * b), "aux"


def vector(x):
    return np.sin(x) * 2.0


def guarded(x):
    if x.sum() < 0:  # `<` and `&` must be escaped in HTML: a & b
        return np.sum(x ** 2)
    return np.sum(np.exp(x))


class Model:
    def __init__(self, scale):
        self.scale = scale

    def energy(self, x):
        return self.scale * np.sum(x ** 2)


square = lambda x: np.sum(x ** 2)  # noqa: E731


def _all_kinds():
    partial = functools.partial(loss, b=2.0)
    return [
        (sg.grad(loss), "<sourcegrad grad of loss(w, b) wrt w>"),
        (sg.grad(loss, wrt="b"), "<sourcegrad grad of loss(w, b) wrt b>"),
        (sg.value_and_grad(loss, wrt=(0, 1)),
         "<sourcegrad value_and_grad of loss(w, b) wrt (w, b)>"),
        (sg.grad(with_aux, has_aux=True), "<sourcegrad grad of with_aux(w, b) wrt w, has_aux>"),
        (sg.grad(loss, check=True), "<sourcegrad grad of loss(w, b) wrt w, checked>"),
        (sg.vjp(loss, np.ones(2), 1.0)[1], "<sourcegrad pullback of loss(w, b) wrt (w, b)>"),
        (sg.jacobian(vector), "<sourcegrad jacobian of vector(x) wrt x>"),
        (sg.hessian(loss), "<sourcegrad hessian of loss(w, b) wrt w>"),
        (sg.hvp(loss, wrt=1), "<sourcegrad hvp of loss(w, b) wrt b>"),
        (sg.grad(partial), "<sourcegrad grad of loss(w, *, b) wrt w>"),
        (sg.jacobian(partial), "<sourcegrad jacobian of loss(w, *, b) wrt w>"),
        (sg.grad(Model(3.0).energy), "<sourcegrad grad of Model.energy(x) wrt x>"),
        (sg.grad(square), "<sourcegrad grad of square(x) wrt x>"),
        (sg.grad(sg.grad(square)), "<sourcegrad grad of (grad of square(x) wrt x) wrt x>"),
    ]


@pytest.mark.parametrize("index", range(len(_all_kinds())))
def test_repr_names_the_users_function_and_what_was_made_of_it(index):
    made, expected = _all_kinds()[index]
    assert repr(made) == expected


def test_jit_is_shown_as_what_it_compiles():
    pytest.importorskip("numba")
    assert repr(sg.jit(sg.grad(loss))) == "<sourcegrad jit of (grad of loss(w, b) wrt w)>"
    assert repr(sg.jit(loss)) == "<sourcegrad jit of loss(w, b)>"
    assert "def grad_loss(w, b):" in _text_of(sg.jit(sg.grad(loss))._repr_html_())
    assert "def loss(w, b):" in _text_of(sg.jit(loss)._repr_html_())


def test_ipython_plain_text_display_is_the_repr():
    pretty = pytest.importorskip("IPython.lib.pretty")
    g = sg.grad(loss)
    assert pretty.pretty(g) == "<sourcegrad grad of loss(w, b) wrt w>"
    assert pretty.pretty(sg.hessian(loss)) == "<sourcegrad hessian of loss(w, b) wrt w>"


def _text_of(markup):
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def test_html_shows_the_generated_source_highlighted_with_comments_dimmed():
    g = sg.grad(guarded)
    shown = g._repr_html_()
    assert "grad of guarded(x) wrt x" in shown
    # the code, every character of it, escaped: the comment's `<` and `&` too
    assert g.source.rstrip() in _text_of(shown)
    assert "x.sum() &lt; 0" in shown and "a &amp; b" in shown and "a & b" not in shown
    # keywords coloured, and the provenance comments (quoting the user's lines) dimmed
    assert '<span style="color: #a626a4; font-weight: bold">def</span>' in shown
    comments = re.findall(r'<span style="opacity: 0.55; font-style: italic">([^<]*)</span>',
                          shown)
    assert "# if x.sum() &lt; 0:  # `&lt;` and `&amp;` must be escaped in HTML: a &amp; b" in (
        comments)
    assert all(c.startswith("#") for c in comments)


@pytest.mark.parametrize("make", [
    lambda: sg.value_and_grad(loss), lambda: sg.vjp(loss, np.ones(2), 1.0)[1],
    lambda: sg.hessian(loss), lambda: sg.jacobian(vector),
    lambda: sg.grad(functools.partial(loss, b=2.0)),
])
def test_html_of_every_kind_shows_the_code_it_runs(make):
    made = make()
    shown = made._repr_html_()
    assert html.escape(str(made.description)) in shown
    assert made.source.rstrip() in _text_of(shown)


def test_html_needs_no_pygments(monkeypatch):
    """Highlighting is the standard library's tokenizer: the same HTML without Pygments."""
    g = sg.grad(loss)
    with_pygments = g._repr_html_()
    for name in [m for m in sys.modules if m == "pygments" or m.startswith("pygments.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pygments", None)  # `import pygments` now fails
    with pytest.raises(ImportError):
        import pygments  # noqa: F401
    assert g._repr_html_() == with_pygments
    assert "<span" in with_pygments


def test_html_says_why_when_there_is_no_source_to_show():
    def unavailable():
        raise OSError("could not get source code")

    shown = presentation.source_html("grad of f(x) wrt x", unavailable)
    assert "grad of f(x) wrt x" in shown
    assert "its source is not available: could not get source code" in shown
    assert "not available" in presentation.source_html("jit of f(x)", lambda: None)


def test_being_shown_changes_nothing_in_how_a_gradient_is_called_or_read():
    g = sg.grad(loss)
    w, b = np.array([0.3, -1.2]), np.array([2.0, 0.5])
    np.testing.assert_allclose(g(w, b), (1 - np.tanh(w) ** 2) * b)
    np.testing.assert_allclose(g(w, b=b), (1 - np.tanh(w) ** 2) * b)
    assert g is sg.grad(loss)  # asked again: the same object
    assert g.__name__ == "grad_loss" and g.__module__ == __name__
    assert str(inspect.signature(g)) == "(w, b)"
    assert inspect.getsource(g) == g.source == sg.source(loss)
    assert g.__code__.co_filename == inspect.unwrap(g).__code__.co_filename
    # differentiated again, it is the generated code that is read
    np.testing.assert_allclose(sg.grad(lambda w: np.sum(g(w, b)))(w),
                               -2 * np.tanh(w) * (1 - np.tanh(w) ** 2) * b)


def test_no_frame_of_sourcegrads_between_the_call_and_the_generated_code():
    def failing(x):
        return np.sum(np.linalg.inv(x))

    g = sg.grad(failing)
    with pytest.raises(np.linalg.LinAlgError) as raised:
        g(np.zeros((2, 2)))
    frames = traceback.extract_tb(raised.value.__traceback__)
    assert frames[1].name == "grad_failing"  # right after this test's own frame
    assert not any(f.filename == presentation.__file__ for f in frames)


def test_stored_on_a_class_it_is_bound_as_a_function_would_be():
    def scaled(self, x):
        return self.k * np.sum(x ** 2)

    class Holder:
        k = 2.0
        gradient = sg.grad(scaled, wrt=1)

    x = np.array([1.0, -3.0])
    np.testing.assert_allclose(Holder().gradient(x), 4.0 * x)
    assert Holder.gradient is sg.grad(scaled, wrt=1)


class Wide:
    """A method whose multi-line string continues at column 0: its block cannot be
    dedented, so it is read as it stands."""

    def energy(self, x):
        label = """energy
of x"""
        return np.sum(x ** 3) * len(label)


def test_a_method_whose_string_continues_at_column_zero_is_read():
    x = np.array([0.5, -2.0])
    # the string keeps its text, 11 characters (dedenting would have changed it)
    np.testing.assert_allclose(sg.grad(Wide().energy)(x), 11 * 3 * x ** 2)
    assert "'energy\\nof x'" in sg.source(Wide().energy)


def test_a_syntax_error_while_reading_names_the_file_and_its_line():
    with pytest.raises(SyntaxError) as raised:
        forms.parse_block(["    def f(x:\n", "        return x\n"], 6, "/work/cell.py")
    assert raised.value.filename == "/work/cell.py" and raised.value.lineno == 7
    with pytest.raises(SyntaxError) as raised:
        forms.parse_block(["def f(x:\n"], 0, "/work/top.py")
    assert raised.value.filename == "/work/top.py" and raised.value.lineno == 1


def test_a_checked_gradient_asked_after_the_plain_one_is_the_checked_one(restore_the_rule_table):
    def cube(x):
        return x ** 3

    @sg.defvjp(cube)
    def wrong_cube_vjp(g, ans, x):
        return g * 2.0 * x ** 2  # should be 3 x**2: the check must catch it

    def uses_cube(x):
        return np.sum(cube(x))

    plain = sg.grad(uses_cube)
    checked = sg.grad(uses_cube, check=True)
    assert checked is not plain and repr(checked).endswith(", checked>")
    np.testing.assert_allclose(plain(np.array([1.0, 2.0])), [2.0, 8.0])  # the rule's answer
    with pytest.raises(sg.SourcegradError, match="finite differences"):
        checked(np.array([1.0, 2.0]))


def test_a_pullback_dropped_frees_what_it_saved_at_once():
    import weakref

    _, pullback = sg.vjp(lambda a: np.sin(a), np.ones(3))
    alive = weakref.ref(pullback)
    del pullback
    assert alive() is None  # no reference cycle: freed without the garbage collector
