def jvp_list_append_stack(x, tangent_x):
    hs = []
    # h = x
    h = x
    tangent_h = tangent_x
    # for _ in range(3):
    tangent_hs = zeros_like_grad(hs)
    for _ in range(3):
        # h = np.tanh(h)
        tanh_h = np.tanh(h)
        tangent_tanh_h = tangent_h * (1 - tanh_h ** 2)
        h = tanh_h
        tangent_h = tangent_tanh_h
        # hs.append(h)
        hs.append(h)
        tangent_hs.append(tangent_h)
    # return np.sum(np.stack(hs) ** 2)
    stack_hs = np.stack(hs)
    tangent_stack_hs = np.stack(tangent_hs)
    stack_hs_sq = stack_hs ** 2
    tangent_stack_hs_sq = tangent_stack_hs * 2 * stack_hs
    list_append_stack_value = np.sum(stack_hs_sq)
    tangent_list_append_stack_value = np.sum(tangent_stack_hs_sq)
    return list_append_stack_value, tangent_list_append_stack_value
