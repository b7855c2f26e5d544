def grad_return_in_loop(x):
    # acc = x
    returned = False
    acc = x
    # for _ in range(10):
    result_stack = []
    sum_acc_gt_5_stack = []
    acc_stack = []
    result = None
    n_iterations = 0
    for _ in range(10):
        n_iterations += 1
        # acc = acc * 1.1
        acc_times_c = acc * 1.1
        acc_stack.append(acc)
        acc = acc_times_c
        # if np.sum(acc) > 5.0:
        sum_acc_gt_5 = np.sum(acc) > 5.0
        sum_acc_gt_5_stack.append(sum_acc_gt_5)
        if sum_acc_gt_5:
            # return np.sum(acc * x)
            acc_times_x = acc * x
            result_stack.append(result)
            result = np.sum(acc_times_x)
            returned = True
            break
    # return np.sum(acc)
    not_returned = not returned
    if not_returned:
        # return np.sum(acc)
        result_old = result
        result = np.sum(acc)
    grad_return_in_loop_value = 1.0
    # return np.sum(acc)
    grad_result = grad_return_in_loop_value
    if not_returned:
        # return np.sum(acc)
        grad_acc = unreduce(grad_result, x)
        result = result_old
        grad_result = zeros_like_grad(result)
    else:
        grad_acc = zeros_like_grad(acc)
    # for _ in range(10):
    grad_x = zeros_like_grad(x)
    for _ in range(n_iterations):
        # if np.sum(acc) > 5.0:
        sum_acc_gt_5 = sum_acc_gt_5_stack.pop()
        if sum_acc_gt_5:
            # return np.sum(acc * x)
            grad_acc_times_x = unreduce(grad_result, x)
            result = result_stack.pop()
            grad_acc = grad_acc + grad_acc_times_x * x
            grad_x = add_into(grad_x, grad_acc_times_x * acc)
            grad_result = zeros_like_grad(result)
        # acc = acc * 1.1
        grad_acc_times_c = grad_acc
        acc = acc_stack.pop()
        grad_acc = grad_acc_times_c * 1.1
    del acc
    # acc = x
    grad_x = add_into(grad_x, grad_acc)
    return as_gradient(grad_x, x)
