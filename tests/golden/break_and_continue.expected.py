def grad_break_and_continue(x):
    total = 0.0
    # for i in range(6):
    i_eq_1_stack = []
    i_stack = []
    n_iterations = 0
    for i in range(6):
        n_iterations += 1
        i_stack.append(i)
        # if i == 1:
        i_eq_1 = i == 1
        i_eq_1_stack.append(i_eq_1)
        if i_eq_1:
            pass
        else:
            # total = total + np.sum(x ** i)
            total = total + np.sum(x ** i)
            # if i == 4:
            if i == 4:
                break
    # return total
    break_and_continue_value = total
    grad_break_and_continue_value = scalar_seed(break_and_continue_value)
    # return total
    grad_total = grad_break_and_continue_value
    # for i in range(6):
    grad_x = zeros_like_grad(x)
    for _ in range(n_iterations):
        i = i_stack.pop()
        # if i == 1:
        i_eq_1 = i_eq_1_stack.pop()
        if not i_eq_1:
            # total = total + np.sum(x ** i)
            grad_x_pow_i = unreduce(grad_total, x)
            grad_x = add_into(grad_x,
                              np.where(i == 0, 0,
                                       grad_x_pow_i * i * np.where(i == 0, 1, x) ** (i - 1)))
    return as_gradient(grad_x, x)
