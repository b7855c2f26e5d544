def grad_branch(x):
    # if np.sum(x) > 0:
    sum_x_gt_0 = np.sum(x) > 0
    if sum_x_gt_0:
        y = x * 2.0
    else:
        y = np.sin(x)
    grad_branch_value = 1.0
    # return np.sum(y * x)
    grad_y_times_x = np.broadcast_to(grad_branch_value, (3,))
    grad_y = grad_y_times_x * x
    grad_x = grad_y_times_x * y
    # if np.sum(x) > 0:
    if sum_x_gt_0:
        # y = x * 2.0
        grad_x += grad_y * 2.0
    else:
        # y = np.sin(x)
        grad_x += grad_y * np.cos(x)
    return grad_x
