def grad_for_range(x, n):
    acc = 0.0
    # for i in range(n):
    x_times_i_stack = []
    for i in range(n):
        # acc = acc + np.sum(np.sin(x * i))
        x_times_i = x * i
        x_times_i_stack.append(x_times_i)
        acc = acc + np.sum(np.sin(x_times_i))
    # return acc
    for_range_value = acc
    grad_for_range_value = scalar_seed(for_range_value)
    # return acc
    grad_acc = grad_for_range_value
    # for i in range(n):
    grad_x = zeros_like_grad(x)
    for i in reversed(range(n)):
        x_times_i = x_times_i_stack.pop()
        # acc = acc + np.sum(np.sin(x * i))
        grad_sin_x_times_i = unreduce(grad_acc, x)
        grad_x_times_i = grad_sin_x_times_i * np.cos(x_times_i)
        grad_x = add_into(grad_x, grad_x_times_i * i)
    return as_gradient(grad_x, x)
