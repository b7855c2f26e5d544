def jvp_while_loop(x, tangent_x):
    # y = x
    y = x
    tangent_y = tangent_x
    while np.sum(y * y) < 100.0:
        # y = y * 1.7 + 0.1
        y_times_c = y * 1.7
        tangent_y_times_c = tangent_y * 1.7
        y = y_times_c + 0.1
        tangent_y = tangent_y_times_c
    # return np.sum(y)
    while_loop_value = np.sum(y)
    tangent_while_loop_value = np.sum(tangent_y)
    return while_loop_value, tangent_while_loop_value
