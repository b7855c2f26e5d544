def grad_gaussian_window(x):
    # return np.sum(np.sin(x) * np.exp(-0.5 * x * x))
    sin_x = np.sin(x)
    neg_c_times_x = -0.5 * x
    exp_neg_c_times_x_times = neg_c_times_x * x
    np.exp(exp_neg_c_times_x_times, out=exp_neg_c_times_x_times)
    # return np.sum(np.sin(x) * np.exp(-0.5 * x * x))
    grad_neg_c_times_x_times_x = np.multiply(sin_x, exp_neg_c_times_x_times, out=sin_x)
    del sin_x
    grad_x = np.multiply(grad_neg_c_times_x_times_x, neg_c_times_x, out=grad_neg_c_times_x_times_x)
    del neg_c_times_x, grad_neg_c_times_x_times_x
    grad_x *= 2
    grad_x += exp_neg_c_times_x_times * np.cos(x)
    return grad_x
