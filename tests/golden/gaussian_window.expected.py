def grad_gaussian_window(x):
    # return np.sum(np.sin(x) * np.exp(-0.5 * x * x))
    sin_x = np.sin(x)
    neg_c_times_x = -0.5 * x
    exp_neg_c_times_x_times = np.exp(neg_c_times_x * x)
    grad_gaussian_window_value = 1.0
    # return np.sum(np.sin(x) * np.exp(-0.5 * x * x))
    grad_sin_x_times_exp_neg_c = unreduce(grad_gaussian_window_value, x)
    grad_exp_neg_c_times_x_times = grad_sin_x_times_exp_neg_c * sin_x
    del sin_x
    grad_neg_c_times_x_times_x = grad_exp_neg_c_times_x_times * exp_neg_c_times_x_times
    del grad_exp_neg_c_times_x_times
    grad_x = grad_neg_c_times_x_times_x * neg_c_times_x
    del neg_c_times_x
    grad_neg_c_times_x = grad_neg_c_times_x_times_x * x
    del grad_neg_c_times_x_times_x
    grad_x = add_into(grad_x, grad_neg_c_times_x * -0.5)
    del grad_neg_c_times_x
    grad_sin_x = grad_sin_x_times_exp_neg_c * exp_neg_c_times_x_times
    del exp_neg_c_times_x_times
    grad_x = add_into(grad_x, grad_sin_x * np.cos(x))
    return as_gradient(grad_x, x)
