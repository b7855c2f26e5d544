def grad_elif_chain(x, t):
    # if t < 0:
    t_lt_0 = t < 0
    if t_lt_0:
        y = x ** 2
    else:
        # elif t < 1:
        t_lt_1 = t < 1
        if t_lt_1:
            y = np.exp(x)
        else:
            y = x
    grad_elif_chain_value = 1.0
    # return np.sum(y)
    grad_y = unreduce(grad_elif_chain_value, x)
    # if t < 0:
    if t_lt_0:
        # y = x ** 2
        grad_x = grad_y * 2 * x
    else:
        # elif t < 1:
        if t_lt_1:
            # y = np.exp(x)
            grad_x = grad_y * y
        else:
            # y = x
            grad_x = grad_y
    return as_gradient(grad_x, x)
