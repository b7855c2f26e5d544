def grad_scalar_math(x, y):
    # z = math.sin(x) * math.exp(y) + math.sqrt(x * x + 1.0)
    sin_x = math.sin(x)
    exp_y = math.exp(y)
    sin_x_times_exp_y = sin_x * exp_y
    sqrt_x_times_x_plus_1 = math.sqrt(x * x + 1.0)
    z = sin_x_times_exp_y + sqrt_x_times_x_plus_1
    # for _ in range(3):
    tanh_z_stack = []
    for _ in range(3):
        # z = z * 0.9 + math.tanh(z)
        z_times_c = z * 0.9
        tanh_z = math.tanh(z)
        tanh_z_stack.append(tanh_z)
        z = z_times_c + tanh_z
    # return z
    scalar_math_value = z
    grad_scalar_math_value = scalar_seed(scalar_math_value)
    # return z
    grad_z = grad_scalar_math_value
    # for _ in range(3):
    for _ in reversed(range(3)):
        tanh_z = tanh_z_stack.pop()
        # z = z * 0.9 + math.tanh(z)
        grad_z_times_c = grad_z
        grad_z = grad_z * (1 - tanh_z * tanh_z)
        grad_z = add_into(grad_z, grad_z_times_c * 0.9)
    # z = math.sin(x) * math.exp(y) + math.sqrt(x * x + 1.0)
    grad_sin_x_times_exp_y = grad_z
    grad_x_times_x = grad_z / (2 * sqrt_x_times_x_plus_1)
    grad_x = grad_x_times_x * x
    grad_x = add_into(grad_x, grad_x_times_x * x)
    del grad_x_times_x
    grad_sin_x = grad_sin_x_times_exp_y * exp_y
    grad_exp_y = grad_sin_x_times_exp_y * sin_x
    grad_y = grad_exp_y * exp_y
    grad_x = add_into(grad_x, grad_sin_x * math.cos(x))
    return as_gradient(grad_x, x), as_gradient(grad_y, y)
