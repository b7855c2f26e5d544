def grad_for_zip(xs, ys):
    total = 0.0
    # for x, y in zip(xs, ys, strict=False):
    x_times_y_stack = []
    y_stack = []
    x_stack = []
    for i in range(min(len(xs), len(ys))):
        # for x, y in zip(xs, ys, strict=False):
        x = xs[i]
        x_stack.append(x)
        y = ys[i]
        y_stack.append(y)
        # total = total + np.sum(x * y)
        x_times_y = x * y
        x_times_y_stack.append(shape_only(x_times_y))
        total = total + np.sum(x_times_y)
    # return total
    for_zip_value = total
    grad_for_zip_value = scalar_seed(for_zip_value)
    # return total
    grad_total = grad_for_zip_value
    # for x, y in zip(xs, ys, strict=False):
    grad_xs = zeros_like_grad(xs)
    grad_ys = zeros_like_grad(ys)
    for i in reversed(range(min(len(xs), len(ys)))):
        x_times_y = x_times_y_stack.pop()
        y = y_stack.pop()
        x = x_stack.pop()
        # total = total + np.sum(x * y)
        grad_x_times_y = unreduce(grad_total, x_times_y)
        grad_x = unbroadcast(grad_x_times_y * y, x)
        grad_y = unbroadcast(grad_x_times_y * x, y)
        # for x, y in zip(xs, ys, strict=False):
        grad_ys[i] = grad_ys[i] + grad_y
        grad_xs[i] = grad_xs[i] + grad_x
    return as_gradient(grad_xs, xs), as_gradient(grad_ys, ys)
