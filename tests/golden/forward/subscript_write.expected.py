def jvp_subscript_write(x, tangent_x):
    y = np.zeros(4)
    # y[0] = x[1] * 2.0
    x_1 = x[1]
    tangent_x_1 = tangent_x[1]
    x_1_times_2 = x_1 * 2.0
    tangent_x_1_times_2 = tangent_x_1 * 2.0
    y[0] = x_1_times_2
    tangent_y = zeros_like_grad(y)
    tangent_y[0] = tangent_x_1_times_2
    # y[1:3] = x[0:2] ** 2
    x_slice = x[0:2]
    tangent_x_slice = tangent_x[0:2]
    x_slice_sq = x_slice ** 2
    tangent_x_slice_sq = tangent_x_slice * 2 * x_slice
    y[1:3] = x_slice_sq
    tangent_y[1:3] = tangent_x_slice_sq
    # y[3] = y[0] + x[2]
    y_0 = y[0]
    tangent_y_0 = tangent_y[0]
    x_2 = x[2]
    tangent_x_2 = tangent_x[2]
    y_0_plus_x_2 = y_0 + x_2
    tangent_y_0_plus_x_2 = (broadcast_like(tangent_y_0, y_0_plus_x_2)
                            + broadcast_like(tangent_x_2, y_0_plus_x_2))
    y[3] = y_0_plus_x_2
    tangent_y[3] = tangent_y_0_plus_x_2
    # return np.sum(y * y)
    y_times_y = y * y
    tangent_y_times_y = (broadcast_like(tangent_y * y, y_times_y)
                         + broadcast_like(y * tangent_y, y_times_y))
    subscript_write_value = np.sum(y_times_y)
    tangent_subscript_write_value = np.sum(tangent_y_times_y)
    return subscript_write_value, tangent_subscript_write_value
