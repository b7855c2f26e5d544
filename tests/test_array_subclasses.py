"""Subclasses of ``np.ndarray`` and other array types (CONTRACT section 1c), in every mode.

Derivative rules follow ``np.ndarray``'s semantics. Where an array type means something
else by the same code, its derivative would be silently wrong, so it is refused with a
message that says what to write instead:

- ``np.matrix``: ``*`` is a matrix product, ``**`` a matrix power (``grad`` of
  ``sum(sin(M))`` came out as ``g @ cos(M)``);
- ``np.ma.MaskedArray``: reductions skip masked elements (``grad`` of ``mean(x ** 2)``
  divided by the size, not the count, and the masked elements got the seed);
- structured arrays and ``np.recarray`` (an ``IndexError`` from inside generated code).

Such an array read from a global, a closure or an attribute of one (``M * x``) is refused
where the function reads it, with its line. A subclass that keeps ndarray's semantics (a
user's subclass with ``__array_finalize__`` or ``__array_wrap__``, ``np.memmap``) and a
duck array built on ``NDArrayOperatorsMixin`` get derivatives equal to central
differences, of their own type. ``sg.tensor`` and ``sg.from_numpy`` hold a subclass's data as
a plain ndarray, as PyTorch does: tensor arithmetic is PyTorch's, never the subclass's.
"""

import types
import warnings

import numpy as np
import pytest
from numpy.lib.mixins import NDArrayOperatorsMixin

import sourcegrad as sg

from .fd import EPS

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix's


# -- helpers ------------------------------------------------------------------------------------
def differences(f, x):
    """Central differences of ``f`` at ``x``, perturbing ``x``'s own memory so that ``f``
    sees ``x``'s type (a masked array keeps its mask)."""
    base = np.array(x.data if isinstance(x, np.ma.MaskedArray) else np.asarray(x), float)
    grad = np.zeros(base.shape)
    for index in np.ndindex(base.shape):
        values = []
        for step in (EPS, -EPS):
            moved = x.copy()
            memory = moved.data if isinstance(moved, np.ma.MaskedArray) else moved.view(
                np.ndarray)
            memory[index] = base[index] + step
            values.append(float(f(moved)))
        grad[index] = (values[0] - values[1]) / (2 * EPS)
    return grad


def every_mode(f, x):
    """What each transformation returns for ``f`` at ``x`` (a thunk per mode; the first
    call of ``sg.grad`` runs the general code, the second its specialised variant)."""
    ones = np.ones(np.shape(x))
    return {
        "grad": lambda: sg.grad(f)(x),
        "grad, second call": lambda: sg.grad(f)(x),
        "value_and_grad": lambda: sg.value_and_grad(f)(x)[1],
        "vjp": lambda: sg.vjp(f, x)[1](1.0)[0],
        "jvp": lambda: sg.jvp(f, (x,), (ones,))[1],
        "jacobian": lambda: sg.jacobian(f)(x),
        "jacobian, forward": lambda: sg.jacobian(f, mode="forward")(x),
        "hessian": lambda: sg.hessian(f)(x),
    }


MODES = list(every_mode(None, 0.0))


def sum_of_sines(x):
    return np.sum(np.sin(x))


def mean_of_squares(x):
    return np.mean(x ** 2)


def sum_of_products(x):
    return np.sum(x * x)


FUNCTIONS = [sum_of_sines, mean_of_squares, sum_of_products]


@pytest.fixture(params=["1", "0"], ids=["specialised", "general"])
def specialise(request, monkeypatch):
    monkeypatch.setenv("SOURCEGRAD_SPECIALISE", request.param)


# -- refused: arrays whose operators or reductions are not ndarray's ----------------------------
def matrix():
    return np.matrix([[1.0, 2.0], [3.0, 4.5]])


def masked():
    return np.ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0])


@pytest.mark.parametrize("f", FUNCTIONS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make, named", [(matrix, "numpy.matrix"),
                                         (masked, "numpy.ma.MaskedArray")])
def test_a_matrix_or_masked_argument_is_refused_in_every_mode(make, named, mode, f,
                                                               specialise):
    x = make()
    with pytest.raises(TypeError, match=named) as raised:
        every_mode(f, x)[mode]()
    assert "instead" in str(raised.value)


def test_the_differences_follow_each_types_own_semantics():
    """The oracle of these tests: central differences see a masked array's mask (a masked
    element has derivative 0, the mean divides by the count of the others)."""
    m = matrix()
    np.testing.assert_allclose(differences(sum_of_sines, m), np.cos(np.asarray(m)), atol=1e-6)
    x = masked()
    np.testing.assert_allclose(differences(mean_of_squares, x), [2 / 3, 0.0, 2.0, 8 / 3],
                               atol=1e-6)


def structured():
    return np.array([(1.0, 0.5), (2.0, -1.0)], dtype=[("a", "f8"), ("b", "f8")])


def recarray():
    return np.rec.fromarrays([np.array([1.0, 2.0]), np.array([0.5, -1.0])], names="a,b")


def by_key(r):
    return np.sum(r["a"] * np.sin(r["b"]))


def by_attribute(r):
    return np.sum(r.a * r.b ** 2)


@pytest.mark.parametrize("make, f", [(structured, by_key), (recarray, by_key),
                                     (recarray, by_attribute)])
@pytest.mark.parametrize("mode", ["grad", "value_and_grad", "vjp"])
def test_a_structured_array_is_refused_with_its_fields_as_the_fix(make, f, mode, specialise):
    x = make()
    with pytest.raises(TypeError, match="structured array") as raised:
        every_mode(f, x)[mode]()
    assert "x.dtype.names" in str(raised.value)


with warnings.catch_warnings():
    warnings.simplefilter("ignore", PendingDeprecationWarning)
    GLOBAL_MATRIX = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    SETTINGS = types.SimpleNamespace(weights=np.matrix([[1.0, 2.0], [3.0, 4.0]]))
GLOBAL_MASKED = np.ma.array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]])


def reads_global_matrix(x):
    return np.sum(np.sin(GLOBAL_MATRIX * x))


def reads_global_masked(x):
    return np.mean(np.sin(GLOBAL_MASKED * x))


def reads_attribute_matrix(x):
    return np.sum(np.sin(SETTINGS.weights * x))


@pytest.mark.parametrize("f, spelled", [(reads_global_matrix, "GLOBAL_MATRIX"),
                                        (reads_global_masked, "GLOBAL_MASKED"),
                                        (reads_attribute_matrix, "SETTINGS.weights")])
@pytest.mark.parametrize("mode", MODES)
def test_a_global_matrix_or_masked_array_is_refused_where_it_is_read(f, spelled, mode):
    x = np.array([[1.0, -2.0], [0.5, 3.0]])
    with pytest.raises(sg.UnsupportedSyntaxError) as raised:
        every_mode(f, x)[mode]()
    error = raised.value
    assert f"reading `{spelled}`" in str(error)
    assert error.filename == __file__
    assert error.lineno == f.__code__.co_firstlineno + 1
    assert "instead" in error.advice


def shadows_the_global(x):
    GLOBAL_MATRIX = np.asarray(x)  # noqa: N806 (the function's own name, not the global)
    return np.sum(np.sin(GLOBAL_MATRIX) * 2.0)


def test_a_local_name_that_shadows_a_global_matrix_is_not_refused():
    x = np.array([[1.0, -2.0], [0.5, 3.0]])
    np.testing.assert_allclose(sg.grad(shadows_the_global)(x), 2 * np.cos(x))


def constant_matrix(x, m):
    return np.sum(np.sin(m * x))


def test_a_matrix_given_as_a_constant_argument_is_refused():
    """``wrt`` names ``x``; the matrix ``m`` beside it makes ``m * x`` a matrix product."""
    x = np.array([[1.0, -2.0], [0.5, 3.0]])
    m = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(TypeError, match="numpy.matrix"):
        sg.grad(constant_matrix)(x, m)
    with pytest.raises(TypeError, match="numpy.matrix"):
        sg.jvp(constant_matrix, (x, m), (np.ones((2, 2)), None))
    with pytest.raises(TypeError, match="numpy.matrix"):
        sg.vjp(constant_matrix, x, m)[1](1.0)


class Model:
    """Holds its weights as an np.matrix: ``self.weights * x`` is a matrix product."""

    def __init__(self):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PendingDeprecationWarning)
            self.weights = np.matrix([[1.0, 2.0], [3.0, 4.0]])

    def loss(self, x):
        return np.sum(np.sin(self.weights * x))


@pytest.mark.parametrize("mode", ["grad", "value_and_grad", "vjp", "jvp", "hessian"])
def test_a_matrix_attribute_of_a_bound_object_is_refused(mode):
    """jvp's scalar tangent through ``self.weights * x`` was silently wrong: no matrix type
    is left in a sum to notice (reverse mode noticed the gradient's type)."""
    x = np.array([[1.0, -2.0], [0.5, 3.0]])
    with pytest.raises(TypeError, match="numpy.matrix"):
        every_mode(Model().loss, x)[mode]()


# -- the runtime: a tensor holds a plain array, as PyTorch's does -------------------------------
@pytest.mark.parametrize("make", [matrix, masked])
@pytest.mark.parametrize("build", ["tensor", "from_numpy"])
def test_a_tensor_of_a_subclass_computes_as_pytorch(make, build):
    """``torch.from_numpy(np.matrix)`` multiplies elementwise and takes a masked array's data
    (mask ignored); so does sourcegrad (``from_numpy`` held the matrix, and ``t * t`` came
    out a matrix product with an elementwise gradient)."""
    given = make()
    data = np.array(given.data if isinstance(given, np.ma.MaskedArray) else given, float)
    leaf = sg.tensor(given, requires_grad=True) if build == "tensor" else (
        sg.from_numpy(given).requires_grad_())
    assert type(leaf.data) is np.ndarray
    (leaf * leaf).sum().backward()
    np.testing.assert_allclose(leaf.grad.numpy(), 2 * data)
    second = sg.tensor(given, requires_grad=True) if build == "tensor" else (
        sg.from_numpy(given).requires_grad_())
    sg.differentiable(sum_of_sines)(second).backward()
    np.testing.assert_allclose(second.grad.numpy(), np.cos(data))


def test_from_numpy_of_a_subclass_shares_its_memory():
    given = matrix()
    t = sg.from_numpy(given)
    given[0, 0] = 7.0
    assert t.data[0, 0] == 7.0


# -- clean: subclasses with ndarray's semantics, and duck arrays --------------------------------
class Tagged(np.ndarray):
    """A user's subclass that carries a tag through every operation."""

    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", "tagged")


class Wrapped(np.ndarray):
    """A user's subclass that rewraps ufunc results (``__array_wrap__``)."""

    def __array_wrap__(self, array, context=None, return_scalar=False):
        return super().__array_wrap__(array, context, return_scalar)


def logistic_rows(x):
    return np.sum(np.mean(1.0 / (1.0 + np.exp(-x)), axis=0, keepdims=True) ** 2)


def broadcast_tanh(x):
    return np.sum(np.tanh(x + np.array([1.0, 2.0, 3.0])) * x)


def products_and_rows(x):
    return np.sum(x @ x.T) + np.sum(np.max(x, axis=1)) + np.sum(x[:, 1] ** 3)


KEEPING = [logistic_rows, broadcast_tanh, products_and_rows]
X = np.array([[0.3, -1.2, 2.0], [0.5, 0.1, -0.7]])


def tagged():
    return X.copy().view(Tagged)


def wrapped():
    return X.copy().view(Wrapped)


def memmapped(tmp_path):
    array = np.memmap(tmp_path / "x.dat", dtype=np.float64, mode="w+", shape=X.shape)
    array[:] = X
    return array


@pytest.mark.parametrize("f", KEEPING)
@pytest.mark.parametrize("make", [tagged, wrapped, memmapped])
def test_a_subclass_that_keeps_ndarray_semantics_gets_its_gradient(make, f, tmp_path):
    x = make(tmp_path) if make is memmapped else make()
    expected = differences(f, x)
    for mode in ["grad", "grad, second call", "value_and_grad", "vjp"]:
        got = every_mode(f, x)[mode]()
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-5, atol=1e-6,
                                   err_msg=mode)
        if make is not memmapped:  # (a memmap's arithmetic gives plain arrays)
            assert isinstance(got, type(x)), mode
    direction = np.linspace(-1.0, 1.0, X.size).reshape(X.shape)
    tangent = sg.jvp(f, (x,), (direction,))[1]
    np.testing.assert_allclose(tangent, np.sum(expected * direction), rtol=1e-5)


class Duck(NDArrayOperatorsMixin):
    """A minimal duck array: an ndarray inside, NumPy's protocols outside."""

    def __init__(self, array):
        self.array = np.asarray(array)

    shape = property(lambda self: self.array.shape)
    dtype = property(lambda self: self.array.dtype)
    ndim = property(lambda self: self.array.ndim)
    T = property(lambda self: Duck(self.array.T))

    def __getitem__(self, index):
        return Duck(self.array[index])

    def __setitem__(self, index, value):  # (the gradient of `x[:, 1]` is written into)
        self.array[index] = _inside(value)

    def __len__(self):
        return len(self.array)

    def copy(self):
        return Duck(self.array.copy())

    def __float__(self):
        return float(self.array)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if "out" in kwargs:
            kwargs["out"] = _inside(kwargs["out"])
        return _outside(getattr(ufunc, method)(*_inside(inputs), **kwargs))

    def __array_function__(self, func, types, args, kwargs):
        return _outside(func(*_inside(args), **_inside(kwargs)))


def _inside(value):
    if isinstance(value, Duck):
        return value.array
    if isinstance(value, (list, tuple)):
        return type(value)(_inside(v) for v in value)
    if isinstance(value, dict):
        return {k: _inside(v) for k, v in value.items()}
    return value


def _outside(value):
    if isinstance(value, np.ndarray):
        return Duck(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_outside(v) for v in value)
    return value


@pytest.mark.parametrize("f", KEEPING)
def test_a_duck_array_gets_its_gradient_as_its_own_type(f):
    x = Duck(X.copy())
    expected = differences(lambda v: f(Duck(v)), X.copy())
    for mode in ["grad", "grad, second call", "value_and_grad", "vjp"]:
        got = every_mode(f, x)[mode]()
        assert type(got) is Duck, mode
        assert got.shape == X.shape and got.dtype == np.float64, mode
        np.testing.assert_allclose(got.array, expected, rtol=1e-5, atol=1e-6, err_msg=mode)
    direction = np.linspace(-1.0, 1.0, X.size).reshape(X.shape)
    tangent = sg.jvp(f, (x,), (Duck(direction),))[1]
    np.testing.assert_allclose(_inside(tangent), np.sum(expected * direction), rtol=1e-5)
