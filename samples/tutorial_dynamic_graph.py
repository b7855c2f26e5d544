"""The dynamic computation graph: a tensor from a NumPy array, backward with a vector,
and no_grad on a scalar.

Run: python samples/tutorial_dynamic_graph.py
"""

import numpy as np

import sourcegrad as sg


def from_numpy_array():
    """y = x * x + 4 from a float64 array; y.backward(x) gives x.grad = 2 x * x."""
    array = np.array([1.0, 2.0, 3.0])
    x = sg.from_numpy(array)  # shares the array's memory, keeps float64
    x.requires_grad_(True)
    y = x * x + 4
    y.backward(x)
    print(x.grad)
    return array, x


def scalar_no_grad():
    x = sg.tensor(1.0, requires_grad=True)
    y = x * 2
    print(x.requires_grad, y.requires_grad)
    with sg.no_grad():
        y = x * 2
        inside = y.requires_grad
    print(inside)
    return inside


def main():
    from_numpy_array()
    scalar_no_grad()


if __name__ == "__main__":
    main()
