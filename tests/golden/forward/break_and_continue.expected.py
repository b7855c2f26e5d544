def jvp_break_and_continue(x, tangent_x):
    total = 0.0
    # for i in range(6):
    tangent_total = zeros_like_grad(total)
    for i in range(6):
        if i == 1:
            pass
        else:
            # total = total + np.sum(x ** i)
            x_pow_i = x ** i
            tangent_x_pow_i = np.where(i == 0, 0, tangent_x * i * np.where(i == 0, 1, x) ** (i - 1))
            sum_x_pow_i = np.sum(x_pow_i)
            tangent_sum_x_pow_i = np.sum(tangent_x_pow_i)
            total_plus_sum_x_pow_i = total + sum_x_pow_i
            tangent_total_plus_sum_x_pow_i = tangent_total + tangent_sum_x_pow_i
            total = total_plus_sum_x_pow_i
            tangent_total = tangent_total_plus_sum_x_pow_i
            if i == 4:
                break
    # return total
    break_and_continue_value = total
    tangent_break_and_continue_value = tangent_total
    return break_and_continue_value, tangent_break_and_continue_value
