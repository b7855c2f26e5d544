def grad_calls_user_function(x):
    # return np.sum(helper(x) + helper(x, scale=3.0))
    helper_x, helper_x_saved = forward_helper(x)
    helper_x_2, helper_x_2_saved = forward_helper(x, scale=3.0)
    del helper_x, helper_x_2
    grad_calls_user_function_value = 1.0
    # return np.sum(helper(x) + helper(x, scale=3.0))
    grad_helper_x_plus_helper_x = np.broadcast_to(grad_calls_user_function_value, (3,))
    grad_x = backward_helper(grad_helper_x_plus_helper_x, helper_x_2_saved)[0]
    del helper_x_2_saved
    grad_x = grad_x + backward_helper(grad_helper_x_plus_helper_x, helper_x_saved)[0]
    return grad_x


def forward_helper(a, scale=2.0):
    # return np.sin(a) * scale
    helper_value = np.sin(a) * scale
    return helper_value, (a, scale)


def backward_helper(grad_helper_value, saved):
    a, scale = saved
    # return np.sin(a) * scale
    grad_sin_a = grad_helper_value * scale
    grad_a = grad_sin_a * np.cos(a)
    return grad_a,
