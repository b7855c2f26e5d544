def jvp_branch(x, tangent_x):
    if np.sum(x) > 0:
        # y = x * 2.0
        y = x * 2.0
        tangent_y = tangent_x * 2.0
    else:
        # y = np.sin(x)
        y = np.sin(x)
        tangent_y = tangent_x * np.cos(x)
    # return np.sum(y * x)
    y_times_x = y * x
    tangent_y_times_x = tangent_y * x + y * tangent_x
    branch_value = np.sum(y_times_x)
    tangent_branch_value = np.sum(tangent_y_times_x)
    return branch_value, tangent_branch_value
