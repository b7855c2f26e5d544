def jvp_calls_user_function(x, tangent_x):
    # return np.sum(helper(x) + helper(x, scale=3.0))
    helper_x, tangent_helper_x = jvp_helper(x, tangent_a=tangent_x)
    helper_x_2, tangent_helper_x_2 = jvp_helper(x, scale=3.0, tangent_a=tangent_x)
    helper_x_plus_helper_x = helper_x + helper_x_2
    tangent_helper_x_plus_helper_x = (broadcast_like(tangent_helper_x, helper_x_plus_helper_x)
                                      + broadcast_like(tangent_helper_x_2, helper_x_plus_helper_x))
    calls_user_function_value = np.sum(helper_x_plus_helper_x)
    tangent_calls_user_function_value = np.sum(tangent_helper_x_plus_helper_x)
    return calls_user_function_value, tangent_calls_user_function_value


def jvp_helper(a, scale=2.0, *, tangent_a):
    # return np.sin(a) * scale
    sin_a = np.sin(a)
    tangent_sin_a = tangent_a * np.cos(a)
    helper_value = sin_a * scale
    tangent_helper_value = broadcast_like(tangent_sin_a * scale, helper_value)
    return helper_value, tangent_helper_value
