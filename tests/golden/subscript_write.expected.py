def grad_subscript_write(x):
    y = np.zeros(4)
    # y[0] = x[1] * 2.0
    x_1_times_2 = x[1] * 2.0
    y[0] = x_1_times_2
    # y[1:3] = x[0:2] ** 2
    x_slice = x[0:2]
    x_slice_sq = x_slice ** 2
    y[1:3] = x_slice_sq
    # y[3] = y[0] + x[2]
    y_0_view = y[0]
    y_0 = np.copy(y_0_view)
    x_2 = x[2]
    y_0_plus_x_2 = y_0 + x_2
    y[3] = y_0_plus_x_2
    # return np.sum(y * y)
    y_times_y = shape_of_elementwise(y, y)
    # the backward sweep reads only the shapes of these: let their elements go
    x_1_times_2 = shape_only(x_1_times_2)
    x_2 = shape_only(x_2)
    x_slice_sq = shape_only(x_slice_sq)
    y_0 = shape_only(y_0)
    y_0_plus_x_2 = shape_only(y_0_plus_x_2)
    grad_subscript_write_value = 1.0
    # return np.sum(y * y)
    grad_y_times_y = unreduce(grad_subscript_write_value, y_times_y)
    grad_y = unbroadcast(grad_y_times_y * y, y)
    grad_y = add_into(grad_y, unbroadcast(grad_y_times_y * y, y))
    del y
    # y[3] = y[0] + x[2]
    grad_y_0_plus_x_2 = unbroadcast(np.copy(grad_y[3]), y_0_plus_x_2)
    grad_y[3] = 0.0
    grad_y_0 = unbroadcast(grad_y_0_plus_x_2, y_0)
    grad_x_2 = unbroadcast(grad_y_0_plus_x_2, x_2)
    del grad_y_0_plus_x_2
    grad_x = zeros_like_grad(x)
    grad_x[2] = grad_x[2] + grad_x_2
    del grad_x_2
    grad_y_0_view = unstack_like(grad_y_0, y_0_view)
    del grad_y_0, y_0_view
    grad_y[0] = add_grads(grad_y[0], grad_y_0_view)
    del grad_y_0_view
    # y[1:3] = x[0:2] ** 2
    grad_x_slice_sq = unbroadcast(np.copy(grad_y[1:3]), x_slice_sq)
    grad_y[1:3] = 0.0
    grad_x_slice = grad_x_slice_sq * 2 * x_slice
    del grad_x_slice_sq, x_slice
    grad_x[0:2] = grad_x[0:2] + grad_x_slice
    del grad_x_slice
    # y[0] = x[1] * 2.0
    grad_x_1_times_2 = unbroadcast(np.copy(grad_y[0]), x_1_times_2)
    grad_y[0] = 0.0
    del grad_y
    grad_x_1 = grad_x_1_times_2 * 2.0
    del grad_x_1_times_2
    grad_x[1] = grad_x[1] + grad_x_1
    return as_gradient(grad_x, x)
