"""A module whose ``np`` is not NumPy and whose ``math`` is NumPy: the user's code must
reach these, and sourcegrad's derivative rules (which say ``np.cos``, ``math.sqrt``) NumPy
and the ``math`` module."""

import types

import numpy

# `np.sin` here is the cosine: code reading NumPy instead would compute other numbers
np = types.SimpleNamespace(sin=numpy.cos, sum=numpy.sum, exp=numpy.exp, tanh=numpy.tanh)
math = numpy


def namespace_np(x):
    return np.sum(np.sin(x) ** 2 + np.exp(x))


def numpy_as_math(x):
    return math.sum(math.sin(x) ** 2)
