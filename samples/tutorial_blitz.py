"""The 60-minute blitz's autograd part: Q = 3 a^3 - b^2, its gradients, the error of a
second backward through a freed graph, and frozen parameters.

Run: python samples/tutorial_blitz.py
"""

import sourcegrad as sg


def gradients_of_q():
    a = sg.tensor([2.0, 3.0], requires_grad=True)
    b = sg.tensor([6.0, 4.0], requires_grad=True)
    Q = 3 * a**3 - b**2
    print(Q)
    Q_sum = Q.sum()
    print(Q_sum)
    Q_sum.backward()
    print(9 * a**2 == a.grad)
    print(-2 * b == b.grad)
    return a, b, Q


def second_backward(Q):
    """The graph behind Q was freed by the first backward."""
    print(Q.shape)
    external_grad = sg.tensor([1.0, 1.0])
    try:
        Q.backward(gradient=external_grad)
    except RuntimeError as error:
        print("RuntimeError:", error)
        return str(error)
    return None


def frozen_parameters():
    x = sg.rand(5, 5)
    y = sg.rand(5, 5)
    z = sg.rand((5, 5), requires_grad=True)
    a = x + y
    print(f"Does `a` require gradients? : {a.requires_grad}")
    b = x + z
    print(f"Does `b` require gradients?: {b.requires_grad}")
    return a.requires_grad, b.requires_grad


def main():
    a, b, Q = gradients_of_q()
    second_backward(Q)
    frozen_parameters()


if __name__ == "__main__":
    main()
