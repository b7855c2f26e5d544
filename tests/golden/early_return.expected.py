def grad_early_return(x):
    # if np.max(x) > 10:
    max_x_gt_10 = np.max(x) > 10
    if max_x_gt_10:
        # return np.sum(x)
        result = np.sum(x)
    else:
        y = np.exp(x)
        # return np.sum(y * y)
        result = np.sum(y * y)
    # return np.sum(y * y)
    early_return_value = result
    grad_early_return_value = scalar_seed(early_return_value)
    # return np.sum(y * y)
    grad_result = grad_early_return_value
    # if np.max(x) > 10:
    if max_x_gt_10:
        # return np.sum(x)
        grad_x = unreduce(grad_result, x)
    else:
        # return np.sum(y * y)
        grad_y_times_y = unreduce(grad_result, x)
        grad_y = grad_y_times_y * y
        grad_y = add_into(grad_y, grad_y_times_y * y)
        # y = np.exp(x)
        grad_x = grad_y * y
    return as_gradient(grad_x, x)
