"""``has_aux=True`` (CONTRACT 1a): ``fun`` returns ``(output, aux)``; ``aux`` comes back
beside the result, as it was computed, and is never differentiated."""

import numpy as np
import pytest

import sourcegrad as sg

from .fd import assert_close, numerical_grad

rng = np.random.default_rng(3)
W = rng.standard_normal((3, 2))
X = rng.standard_normal((5, 3))
T = np.eye(2)[[0, 1, 1, 0, 1]]


def loss_and_accuracy(w, x, t):
    logits = x @ w
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    accuracy = np.mean(np.argmax(logits, axis=1) == np.argmax(t, axis=1))
    return -np.mean(np.sum(t * log_probs, axis=1)), {"accuracy": accuracy, "logits": logits}


def only_loss(w, x, t):
    return loss_and_accuracy(w, x, t)[0]


def returns_a_pair_variable(x):
    pair = (np.sum(np.sin(x)), x * 2)
    return pair


def early_return_with_aux(x):
    if np.sum(x) > 0:
        return np.sum(x ** 2), "positive"
    return np.sum(x ** 3), "negative"


def test_grad_returns_the_gradient_and_aux():
    gradient, aux = sg.grad(loss_and_accuracy, has_aux=True)(W, X, T)
    assert_close(gradient, numerical_grad(only_loss, (W, X, T), 0))
    assert aux["accuracy"] == np.mean(np.argmax(X @ W, axis=1) == np.argmax(T, axis=1))
    assert_close(aux["logits"], X @ W)


def test_value_and_grad_returns_value_and_aux_then_gradient():
    (value, aux), gradient = sg.value_and_grad(loss_and_accuracy, has_aux=True)(W, X, T)
    assert_close(value, only_loss(W, X, T))
    assert set(aux) == {"accuracy", "logits"}
    assert_close(gradient, numerical_grad(only_loss, (W, X, T), 0))


def test_several_wrt_and_a_decorator_form():
    grads, aux = sg.grad(loss_and_accuracy, wrt=(0, 1), has_aux=True)(W, X, T)
    assert_close(grads, (numerical_grad(only_loss, (W, X, T), 0),
                         numerical_grad(only_loss, (W, X, T), 1)))
    decorated = sg.grad(has_aux=True)(returns_a_pair_variable)
    gradient, aux = decorated(X[0])
    assert_close(gradient, np.cos(X[0]))
    assert_close(aux, X[0] * 2)


def test_vjp_returns_value_pullback_and_aux():
    value, pullback, aux = sg.vjp(returns_a_pair_variable, X[0], has_aux=True)
    assert_close(value, float(np.sum(np.sin(X[0]))))
    assert_close(aux, X[0] * 2)
    (gradient,) = pullback(2.0)
    assert_close(gradient, 2.0 * np.cos(X[0]))


def test_jacobian_with_aux():
    def fun(x):
        return np.sin(x) * 2.0, np.max(x)

    for mode in (None, "forward", "reverse"):
        jacobian, aux = sg.jacobian(fun, has_aux=True, mode=mode)(X[0])
        assert_close(jacobian, np.diag(2.0 * np.cos(X[0])))
        assert aux == np.max(X[0])


def test_aux_on_each_branch_of_an_early_return():
    for x in (np.abs(X[0]), -np.abs(X[0])):
        gradient, aux = sg.grad(early_return_with_aux, has_aux=True)(x)
        expected = 2 * x if np.sum(x) > 0 else 3 * x ** 2
        assert_close(gradient, expected)
        assert aux == ("positive" if np.sum(x) > 0 else "negative")


def test_aux_of_a_lambda_and_the_generated_source():
    fun = sg.grad(lambda x: (np.sum(x ** 2), np.mean(x)), has_aux=True)
    gradient, aux = fun(X[0])
    assert_close(gradient, 2 * X[0])
    assert_close(aux, float(np.mean(X[0])))
    assert "return as_gradient(grad_x, x), aux" in fun.source


def test_aux_is_not_differentiated_even_without_a_rule():
    def fun(x):
        return np.sum(x ** 2), np.i0(x)  # np.i0 has no rule: aux is never differentiated
    gradient, aux = sg.grad(fun, has_aux=True)(X[0])
    assert_close(gradient, 2 * X[0])
    assert_close(aux, np.i0(X[0]))


def test_a_function_that_does_not_return_a_pair_is_refused():
    def three(x):
        return np.sum(x), x, x

    with pytest.raises(sg.UnsupportedSyntaxError, match="Return a pair"):
        sg.grad(three, has_aux=True)


def test_a_pair_returned_without_has_aux_says_to_pass_it():
    with pytest.raises(TypeError, match="pass has_aux=True"):
        sg.grad(returns_a_pair_variable)(X[0])
