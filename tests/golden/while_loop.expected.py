def grad_while_loop(x):
    y = x
    # while np.sum(y * y) < 100.0:
    n_iterations = 0
    while np.sum(y * y) < 100.0:
        n_iterations += 1
        # y = y * 1.7 + 0.1
        y = y * 1.7 + 0.1
    # return np.sum(y)
    while_loop_value = np.sum(y)
    grad_while_loop_value = scalar_seed(while_loop_value)
    # return np.sum(y)
    grad_y = unreduce(grad_while_loop_value, x)
    # while np.sum(y * y) < 100.0:
    for _ in range(n_iterations):
        # y = y * 1.7 + 0.1
        grad_y = grad_y * 1.7
    # y = x
    grad_x = grad_y
    return as_gradient(grad_x, x)
