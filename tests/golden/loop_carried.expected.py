def grad_loop_carried(x, n):
    # for _ in range(n):
    tanh_x_stack = []
    for _ in range(n):
        # x = np.tanh(x) * 1.5
        tanh_x = np.tanh(x)
        tanh_x_stack.append(tanh_x)
        x = tanh_x * 1.5
    grad_loop_carried_value = 1.0
    # return np.sum(x)
    grad_x = unreduce(grad_loop_carried_value, x)
    # for _ in range(n):
    for _ in reversed(range(n)):
        tanh_x = tanh_x_stack.pop()
        # x = np.tanh(x) * 1.5
        grad_tanh_x = grad_x * 1.5
        grad_x = grad_tanh_x * (1 - tanh_x ** 2)
    return as_gradient(grad_x, x)
