def jvp_scalar_math(x, y, tangent_x, tangent_y):
    # z = math.sin(x) * math.exp(y) + math.sqrt(x * x + 1.0)
    sin_x = math.sin(x)
    tangent_sin_x = tangent_x * math.cos(x)
    exp_y = math.exp(y)
    tangent_exp_y = tangent_y * exp_y
    sin_x_times_exp_y = sin_x * exp_y
    tangent_sin_x_times_exp_y = tangent_sin_x * exp_y + sin_x * tangent_exp_y
    x_times_x = x * x
    tangent_x_times_x = tangent_x * x + x * tangent_x
    x_times_x_plus_1 = x_times_x + 1.0
    tangent_x_times_x_plus_1 = tangent_x_times_x
    sqrt_x_times_x_plus_1 = math.sqrt(x_times_x_plus_1)
    tangent_sqrt_x_times_x_plus_1 = tangent_x_times_x_plus_1 / (2 * sqrt_x_times_x_plus_1)
    z = sin_x_times_exp_y + sqrt_x_times_x_plus_1
    tangent_z = tangent_sin_x_times_exp_y + tangent_sqrt_x_times_x_plus_1
    for _ in range(3):
        # z = z * 0.9 + math.tanh(z)
        z_times_c = z * 0.9
        tangent_z_times_c = tangent_z * 0.9
        tanh_z = math.tanh(z)
        tangent_tanh_z = tangent_z * (1 - tanh_z * tanh_z)
        z = z_times_c + tanh_z
        tangent_z = tangent_z_times_c + tangent_tanh_z
    # return z
    scalar_math_value = z
    tangent_scalar_math_value = tangent_z
    return scalar_math_value, tangent_scalar_math_value
