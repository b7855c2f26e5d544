def jvp_loop_carried(x, n, tangent_x):
    for _ in range(n):
        # x = np.tanh(x) * 1.5
        tanh_x = np.tanh(x)
        tangent_tanh_x = tangent_x * (1 - tanh_x ** 2)
        x = tanh_x * 1.5
        tangent_x = tangent_tanh_x * 1.5
    # return np.sum(x)
    loop_carried_value = np.sum(x)
    tangent_loop_carried_value = np.sum(tangent_x)
    return loop_carried_value, tangent_loop_carried_value
