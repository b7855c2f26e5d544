def grad_reassign(x):
    # x = x - np.mean(x)
    mean_x = np.mean(x)
    x_2 = x - mean_x
    # x = x / np.sqrt(np.mean(x * x) + 1.0)
    mean_x_2_times_x_2 = np.mean(x_2 * x_2)
    sqrt_mean_x_2_times_x_2 = np.sqrt(mean_x_2_times_x_2 + 1.0)
    x_3 = x_2 / sqrt_mean_x_2_times_x_2
    # return np.sum(x * x * x)
    x_3_times_x_3 = x_3 * x_3
    grad_reassign_value = 1.0
    # return np.sum(x * x * x)
    grad_x_3_times_x_3_times_x_3 = unreduce(grad_reassign_value, x)
    grad_x_3_times_x_3 = grad_x_3_times_x_3_times_x_3 * x_3
    grad_x_3 = grad_x_3_times_x_3_times_x_3 * x_3_times_x_3
    del x_3_times_x_3
    grad_x_3 = add_into(grad_x_3, grad_x_3_times_x_3 * x_3)
    grad_x_3 = add_into(grad_x_3, grad_x_3_times_x_3 * x_3)
    del grad_x_3_times_x_3
    # x = x / np.sqrt(np.mean(x * x) + 1.0)
    grad_x_2 = grad_x_3 / sqrt_mean_x_2_times_x_2
    grad_sqrt_mean_x_2_times_x_2 = unbroadcast(-grad_x_3 * x_3 / sqrt_mean_x_2_times_x_2,
                                               sqrt_mean_x_2_times_x_2)
    del grad_x_3, x_3
    grad_mean_x_2_times_x_2 = grad_sqrt_mean_x_2_times_x_2 / (2 * sqrt_mean_x_2_times_x_2)
    grad_x_2_times_x_2 = unreduce(grad_mean_x_2_times_x_2 / reduced_count(x, mean_x_2_times_x_2), x)
    grad_x_2 = add_into(grad_x_2, grad_x_2_times_x_2 * x_2)
    grad_x_2 = add_into(grad_x_2, grad_x_2_times_x_2 * x_2)
    del x_2
    # x = x - np.mean(x)
    grad_x = grad_x_2
    grad_mean_x = unbroadcast(-grad_x_2, mean_x)
    del grad_x_2
    grad_x = grad_x + unreduce(grad_mean_x / reduced_count(x, mean_x), x)
    return as_gradient(grad_x, x)
