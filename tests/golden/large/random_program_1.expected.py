def grad_f(x, y):
    v0 = x
    # for _ in range(0):
    v0_stack = []
    minimum_c_sq_plus_1_stack = []
    minimum_c_stack = []
    sqrt_x_sq_plus_1_stack = []
    for _ in range(0):
        # v0 = (np.sqrt((x) ** 2 + 1.0)) / ((np.minimum(1.5, x)) ** 2 + 1.0)
        sqrt_x_sq_plus_1 = np.sqrt(x ** 2 + 1.0)
        sqrt_x_sq_plus_1_stack.append(sqrt_x_sq_plus_1)
        minimum_c = np.minimum(1.5, x)
        minimum_c_stack.append(minimum_c)
        minimum_c_sq_plus_1 = minimum_c ** 2 + 1.0
        minimum_c_sq_plus_1_stack.append(minimum_c_sq_plus_1)
        v0_stack.append(v0)
        v0 = sqrt_x_sq_plus_1 / minimum_c_sq_plus_1
    # if np.sum(y) > 0:
    sum_y_gt_0 = np.sum(y) > 0
    if sum_y_gt_0:
        # v1 = (np.sin(x)) ** 2
        sin_x = np.sin(x)
        v1 = sin_x ** 2
    else:
        # v1 = np.sqrt((np.where((y) > (1.5), 1.5, y)) ** 2 + 1.0)
        where_y_gt_c = np.where(y > 1.5, 1.5, y)
        v1 = np.sqrt(where_y_gt_c ** 2 + 1.0)
    parts = []
    # for i in range(2):
    helper_where_x_gt_y_2_2_stack = []
    helper_where_x_gt_y_2_stack = []
    hypot_c_stack = []
    for i in range(2):
        # parts.append(helper(np.where((x) > (y), v0, x), np.hypot(1.5, v1)) * (i + 1.0))
        where_x_gt_y = np.where(x > y, v0, x)
        hypot_c = np.hypot(1.5, v1)
        hypot_c_stack.append(hypot_c)
        helper_where_x_gt_y_2, helper_where_x_gt_y_2_2 = forward_helper_2(where_x_gt_y, hypot_c)
        helper_where_x_gt_y_2_2_stack.append(helper_where_x_gt_y_2_2)
        helper_where_x_gt_y_2_stack.append(shape_only(helper_where_x_gt_y_2))
        parts.append(helper_where_x_gt_y_2 * (i + 1.0))
    # v2 = parts[0] + parts[1]
    parts_0 = parts[0]
    parts_1 = parts[1]
    v2 = parts_0 + parts_1
    v3 = v0 * 1.0
    # for i in range(3):
    v3_stack = []
    arctan2_y_stack = []
    v2_sq_plus_1_stack = []
    hypot_v0_stack = []
    sum_v3_gt_c_stack = []
    i_stack = []
    hypot_v0 = None
    n_iterations_5 = 0
    for i in range(3):
        n_iterations_5 += 1
        i_stack.append(i)
        # if np.sum(v3) > 0.18:
        sum_v3_gt_c = np.sum(v3) > 0.18
        sum_v3_gt_c_stack.append(sum_v3_gt_c)
        if sum_v3_gt_c:
            break
        else:
            # v3 = np.where(((y) / ((v3) ** 2 + 1.0)) > ((v0) * (v2)), np.hypot(v0, x), np.arcta ...
            hypot_v0_stack.append(hypot_v0)
            hypot_v0 = np.hypot(v0, x)
            v2_sq_plus_1 = v2 ** 2 + 1.0
            v2_sq_plus_1_stack.append(v2_sq_plus_1)
            arctan2_y = np.arctan2(y, v2_sq_plus_1)
            arctan2_y_stack.append(shape_only(arctan2_y))
            where_y_over_v3_sq_plus = np.where(y / (v3 ** 2 + 1.0) > v0 * v2, hypot_v0, arctan2_y)
            v3_stack.append(v3)
            v3 = where_y_over_v3_sq_plus
    # v4 = (v3) / (((np.prod(np.tanh(y), axis=-1, keepdims=True)) if np.sum(np.where((1.5) > (v2 ...
    sum_where_c_gt_v2_gt_0 = np.sum(np.where(1.5 > v2, y, v1)) > 0
    if sum_where_c_gt_v2_gt_0:
        # v4 = (v3) / (((np.prod(np.tanh(y), axis=-1, keepdims=True)) if np.sum(np.where((1.5) > ...
        tanh_y = np.tanh(y)
        choice = np.prod(tanh_y, axis=-1, keepdims=True)
    else:
        # v4 = (v3) / (((np.prod(np.tanh(y), axis=-1, keepdims=True)) if np.sum(np.where((1.5) > ...
        sum_v1_gt_0_3 = np.sum(v1) > 0
        if sum_v1_gt_0_3:
            # v4 = (v3) / (((np.prod(np.tanh(y), axis=-1, keepdims=True)) if np.sum(np.where((1. ...
            choice = v0
        else:
            # v4 = (v3) / (((np.prod(np.tanh(y), axis=-1, keepdims=True)) if np.sum(np.where((1. ...
            choice = v0
    choice_sq_plus_1 = choice ** 2 + 1.0
    v4 = v3 / choice_sq_plus_1
    # p, q = pair(np.minimum(v0, v1), np.clip(v1, -0.9, 0.8))
    minimum_v0 = np.minimum(v0, v1)
    pair_minimum_v0, pair_minimum_v0_saved = forward_pair(minimum_v0, np.clip(v1, -0.9, 0.8))
    p, q = pair_minimum_v0
    # v5 = p * 0.5 + q
    p_times_c = p * 0.5
    v5 = p_times_c + q
    # v6 = np.minimum((twice(x)) if np.sum(np.where((v0) > (y), 1.5, v2)) > 0 else (y), x)
    sum_where_v0_gt_y_gt_0 = np.sum(np.where(v0 > y, 1.5, v2)) > 0
    if sum_where_v0_gt_y_gt_0:
        # v6 = np.minimum((twice(x)) if np.sum(np.where((v0) > (y), 1.5, v2)) > 0 else (y), x)
        choice_2, choice_2_saved = forward_twice(x)
    else:
        # v6 = np.minimum((twice(x)) if np.sum(np.where((v0) > (y), 1.5, v2)) > 0 else (y), x)
        choice_2 = y
    v6 = np.minimum(choice_2, x)
    # if np.sum(v2) > 0:
    if np.sum(v2) > 0:
        v7 = y
    else:
        v7 = helper(v0, 0.7)
    v8 = x
    n = 0
    # while np.sum(v8 * v8) < 20.0 and n < 3:
    clip_v2_stack = []
    abs_v5_plus_c_stack = []
    v8_times_c_stack = []
    n_iterations_4 = 0
    while np.sum(v8 * v8) < 20.0 and n < 3:
        n_iterations_4 += 1
        # v8 = v8 * 1.3 + np.clip(v2, -1.0, np.abs(v5) + 0.1)
        v8_times_c = v8 * 1.3
        v8_times_c_stack.append(shape_only(v8_times_c))
        abs_v5_plus_c = np.abs(v5) + 0.1
        abs_v5_plus_c_stack.append(abs_v5_plus_c)
        clip_v2 = np.clip(v2, -1.0, abs_v5_plus_c)
        clip_v2_stack.append(shape_only(clip_v2))
        v8 = v8_times_c + clip_v2
        n = n + 1
    # if np.sum(v5) > 0:
    v9 = None
    sum_v5_gt_0 = np.sum(v5) > 0
    if sum_v5_gt_0:
        # v9 = np.cumsum(helper(y, v2), axis=-1)
        helper_y, helper_y_saved = forward_helper_2(y, v2)
        v9 = np.cumsum(helper_y, axis=-1)
    else:
        # v9 = ((v1) + (x)) * 0.5 + (np.cos(v5))
        v1_plus_x_times_c = (v1 + x) * 0.5
        cos_v5 = np.cos(v5)
        v9 = v1_plus_x_times_c + cos_v5
    # if np.sum(v8) > 0:
    if np.sum(v8) > 0:
        # v10 = np.clip((v6) * 0.5 + (v8), -1.0, np.abs(v8) + 0.1)
        v10 = np.clip(v6 * 0.5 + v8, -1.0, np.abs(v8) + 0.1)
    else:
        # v10 = helper(b=0.3, a=(v1) * (x))
        v10 = helper(b=0.3, a=v1 * x)
    v11 = x
    n = 0
    # while np.sum(v11 * v11) < 20.0 and n < 3:
    helper_v9_saved_stack = []
    helper_v9_stack = []
    v11_times_c_stack = []
    n_iterations_3 = 0
    while np.sum(v11 * v11) < 20.0 and n < 3:
        n_iterations_3 += 1
        # v11 = v11 * 1.3 + helper(v9, 0.7)
        v11_times_c = v11 * 1.3
        v11_times_c_stack.append(shape_only(v11_times_c))
        helper_v9, helper_v9_saved = forward_helper(v9, 0.7)
        helper_v9_saved_stack.append(helper_v9_saved)
        helper_v9_stack.append(shape_only(helper_v9))
        v11 = v11_times_c + helper_v9
        n = n + 1
    v12 = x
    for _ in range(2):
        v12 = y
    v13 = 0.0
    # for row, other in zip(v1, v12):
    for i_2 in range(min(len(v1), len(v12))):
        # for row, other in zip(v1, v12):
        row = v1[i_2]
        other = v12[i_2]
        v13 = v13 + np.sin(row) * other
    v14 = x
    # for _ in range(0):
    v14_stack = []
    choice_3_stack = []
    sum_v13_gt_0_stack = []
    choice_3 = None
    for _ in range(0):
        # v14 = np.sqrt(((v4) if np.sum(v13) > 0 else (v1)) ** 2 + 1.0)
        sum_v13_gt_0 = np.sum(v13) > 0
        sum_v13_gt_0_stack.append(sum_v13_gt_0)
        if sum_v13_gt_0:
            # v14 = np.sqrt(((v4) if np.sum(v13) > 0 else (v1)) ** 2 + 1.0)
            choice_3_stack.append(choice_3)
            choice_3 = v4
        else:
            # v14 = np.sqrt(((v4) if np.sum(v13) > 0 else (v1)) ** 2 + 1.0)
            choice_3_stack.append(choice_3)
            choice_3 = v1
        choice_3_sq_plus_1 = choice_3 ** 2 + 1.0
        v14_stack.append(v14)
        v14 = np.sqrt(choice_3_sq_plus_1)
    # v15 = (helper(v4, (v2) if np.sum(v8) > 0 else (v11))) + (v1)
    sum_v8_gt_0 = np.sum(v8) > 0
    if sum_v8_gt_0:
        # v15 = (helper(v4, (v2) if np.sum(v8) > 0 else (v11))) + (v1)
        choice_4 = v2
    else:
        # v15 = (helper(v4, (v2) if np.sum(v8) > 0 else (v11))) + (v1)
        choice_4 = v11
    helper_v4, helper_v4_saved = forward_helper_2(v4, choice_4)
    v15 = helper_v4 + v1
    # v16 = np.cumprod(np.tanh(np.where((y) > (v3), v15, v8)), axis=0)
    tanh_where_y_gt_v3 = np.tanh(np.where(y > v3, v15, v8))
    v16 = np.cumprod(tanh_where_y_gt_v3, axis=0)
    v17 = np.copy(np.maximum(v1, 0.2))
    v17[-1] -= np.tanh(v17[0])
    v17[0] = v17[-1] * 2.0
    # parts = []
    parts_2 = []
    # for i in range(2):
    neg_twice_v16_stack = []
    twice_v16_saved_stack = []
    for i in range(2):
        # parts.append(-(twice(v16)) * (i + 1.0))
        twice_v16, twice_v16_saved = forward_twice(v16)
        twice_v16_saved_stack.append(twice_v16_saved)
        neg_twice_v16 = -twice_v16
        neg_twice_v16_stack.append(shape_only(neg_twice_v16))
        parts_2.append(neg_twice_v16 * (i + 1.0))
    # v18 = parts[0] + parts[1]
    parts_2_0 = parts_2[0]
    parts_2_1 = parts_2[1]
    v18 = parts_2_0 + parts_2_1
    # v19 = (np.where(((v12) - (v6)) > 0, y, 0.5)) * 0.5 + (np.cumprod(np.tanh(v11), axis=0))
    v19 = np.where(v12 - v6 > 0, y, 0.5) * 0.5 + np.cumprod(np.tanh(v11), axis=0)
    v20 = x
    for _ in range(0):
        v20 = v16
    # if np.sum(v1) > 0:
    if np.sum(v1) > 0:
        # v21 = (np.cumsum(v15, axis=-1)) * (np.abs(v20))
        v21 = np.cumsum(v15, axis=-1) * np.abs(v20)
    else:
        v21 = helper(b=0.3, a=helper(1.5, 0.7))
    v22 = np.copy(np.exp(0.3 * v0))
    v22[-1] -= np.tanh(v22[0])
    # v22[..., ::2] *= 0.5
    v22[..., ::2] = v22[..., ::2] * 0.5
    v23 = y * 1.0
    # for _ in range(2):
    v23_stack = []
    for _ in range(2):
        # v23 += v6
        v23_plus_v6 = v23 + v6
        v23_stack.append(v23)
        v23 = v23_plus_v6
    v24 = np.prod(np.tanh(v16) + 1.5)
    v25 = np.copy(helper(y, 0.7))
    # v25[..., ::2] *= 0.5
    v25[..., ::2] = v25[..., ::2] * 0.5
    v25[0] = v25[-1] * 2.0
    v26 = y * 1.0
    for _ in range(0):
        # v26 += helper(np.exp(0.3 * x), np.clip(v13, -0.9, 0.8))
        v26 = v26 + helper(np.exp(0.3 * x), np.clip(v13, -0.9, 0.8))
    v27 = v1 * 1.0
    for i in range(3):
        # if np.sum(v27) > -0.85:
        if np.sum(v27) > -0.85:
            break
        else:
            # v27 = -(np.where((v7) > 0, v1, 0.5))
            v27 = -np.where(v7 > 0, v1, 0.5)
    # if np.sum(v24) > 0:
    if np.sum(v24) > 0:
        # v28 = np.sqrt((v27) ** 2 + 1.0)
        v28 = np.sqrt(v27 ** 2 + 1.0)
    else:
        # v28 = np.maximum(np.where((v24) > (1.5), v21, v20), v7)
        v28 = np.maximum(np.where(v24 > 1.5, v21, v20), v7)
    # if np.sum(v3) > 0:
    if np.sum(v3) > 0:
        v29 = v13
    else:
        # v29 = np.max(np.where((v26) > (v27), x, v23), axis=-1, keepdims=True)
        v29 = np.max(np.where(v26 > v27, x, v23), axis=-1, keepdims=True)
    v30 = v29
    # v31 = np.min(np.clip((v14) * (v15), -0.9, 0.8), axis=-1)
    v14_times_v15 = v14 * v15
    clip_v14_times_v15 = np.clip(v14_times_v15, -0.9, 0.8)
    v31 = np.min(clip_v14_times_v15, axis=-1)
    # if np.sum(v23) > 0:
    sum_v23_gt_0 = np.sum(v23) > 0
    if sum_v23_gt_0:
        v32 = v3
    else:
        v32 = x
    v33 = x
    for _ in range(2):
        # v33 = ((v13) * 0.5 + (v18)) / (((v24) * 0.5 + (v19)) ** 2 + 1.0)
        v33 = (v13 * 0.5 + v18) / ((v24 * 0.5 + v19) ** 2 + 1.0)
    v34 = 0.0
    # for i, row in enumerate(v15):
    v34_stack = []
    sin_row_times_i_plus_1_stack = []
    sin_row_stack = []
    row_stack = []
    for i in range(len(v15)):
        # for i, row in enumerate(v15):
        row_stack.append(row)
        row = v15[i]
        # v34 = v34 + np.sin(row) * (i + 1.0)
        sin_row = np.sin(row)
        sin_row_stack.append(shape_only(sin_row))
        sin_row_times_i_plus_1 = sin_row * (i + 1.0)
        sin_row_times_i_plus_1_stack.append(shape_only(sin_row_times_i_plus_1))
        v34_plus_sin_row_times_i = v34 + sin_row_times_i_plus_1
        v34_stack.append(shape_only(v34))
        v34 = v34_plus_sin_row_times_i
    # v35 = np.where((v11) > 0, np.maximum(np.max(v3, axis=-1, keepdims=True), np.where((v34) > ...
    v35 = np.where(v11 > 0,
                   np.maximum(np.max(v3, axis=-1, keepdims=True), np.where(v34 > v22, v9, v7)), 0.5)
    v36 = x
    n = 0
    # while np.sum(v36 * v36) < 20.0 and n < 3:
    v36_times_c_stack = []
    n_iterations_2 = 0
    while np.sum(v36 * v36) < 20.0 and n < 3:
        n_iterations_2 += 1
        # v36 = v36 * 1.3 + v34
        v36_times_c = v36 * 1.3
        v36_times_c_stack.append(shape_only(v36_times_c))
        v36 = v36_times_c + v34
        n = n + 1
    # if np.sum(v1) > 0:
    sum_v1_gt_0 = np.sum(v1) > 0
    if sum_v1_gt_0:
        # v37 = helper(b=0.3, a=(v32) * (v0))
        v37, v37_saved = forward_helper(b=0.3, a=v32 * v0)
    else:
        # v37 = np.abs(np.exp(0.3 * v6))
        exp_c_times_v6 = np.exp(0.3 * v6)
        v37 = np.abs(exp_c_times_v6)
    # v38 = np.clip((np.sort(v23, axis=-1)) * 0.5 + (v18), -1.0, np.abs((twice(v32)) / ((helper( ...
    sort_v23_times_c = np.sort(v23, axis=-1) * 0.5
    sort_v23_times_c_plus = sort_v23_times_c + v18
    twice_v32, twice_v32_saved = forward_twice(v32)
    helper_v15, helper_v15_saved = forward_helper(v15, 0.7)
    helper_v15_sq_plus_1 = helper_v15 ** 2 + 1.0
    twice_v32_over_helper = twice_v32 / helper_v15_sq_plus_1
    abs_twice_v32_over = np.abs(twice_v32_over_helper) + 0.1
    v38 = np.clip(sort_v23_times_c_plus, -1.0, abs_twice_v32_over)
    v39 = x
    n = 0
    # while np.sum(v39 * v39) < 20.0 and n < 3:
    v39_times_c_stack = []
    sqrt_v31_sq_plus_1_stack = []
    n_iterations = 0
    while np.sum(v39 * v39) < 20.0 and n < 3:
        n_iterations += 1
        # v39 = v39 * 1.3 + np.sqrt((v31) ** 2 + 1.0)
        v39_times_c = v39 * 1.3
        v39_times_c_stack.append(shape_only(v39_times_c))
        sqrt_v31_sq_plus_1 = np.sqrt(v31 ** 2 + 1.0)
        sqrt_v31_sq_plus_1_stack.append(sqrt_v31_sq_plus_1)
        v39 = v39_times_c + sqrt_v31_sq_plus_1
        n = n + 1
    # return np.sum(v36 + v37 + v38 + v39)
    v36_plus_v37 = shape_of_elementwise(v36, v37)
    v36_plus_v37_plus_v38_2 = shape_of_elementwise(v36_plus_v37, v38)
    v36_plus_v37_plus_v38 = shape_of_elementwise(v36_plus_v37_plus_v38_2, v39)
    # the backward sweep reads only the shapes of these: let their elements go
    helper_v4 = shape_only(helper_v4)
    p_times_c = shape_only(p_times_c)
    parts = shape_only(parts)
    parts_0 = shape_only(parts_0)
    parts_1 = shape_only(parts_1)
    parts_2 = shape_only(parts_2)
    parts_2_0 = shape_only(parts_2_0)
    parts_2_1 = shape_only(parts_2_1)
    q = shape_only(q)
    sort_v23_times_c = shape_only(sort_v23_times_c)
    twice_v32 = shape_only(twice_v32)
    v11 = shape_only(v11)
    v18 = shape_only(v18)
    v34 = shape_only(v34)
    v36 = shape_only(v36)
    v38 = shape_only(v38)
    v39 = shape_only(v39)
    v6 = shape_only(v6)
    v8 = shape_only(v8)
    v9 = shape_only(v9)
    grad_f_value = 1.0
    # return np.sum(v36 + v37 + v38 + v39)
    grad_v36_plus_v37_plus_v38 = unreduce(grad_f_value, v36_plus_v37_plus_v38)
    grad_v36_plus_v37_plus_v38_2 = unbroadcast(grad_v36_plus_v37_plus_v38, v36_plus_v37_plus_v38_2)
    grad_v39 = unbroadcast(grad_v36_plus_v37_plus_v38, v39)
    grad_v36_plus_v37 = unbroadcast(grad_v36_plus_v37_plus_v38_2, v36_plus_v37)
    grad_v38 = unbroadcast(grad_v36_plus_v37_plus_v38_2, v38)
    del grad_v36_plus_v37_plus_v38_2
    grad_v36 = unbroadcast(grad_v36_plus_v37, v36)
    grad_v37 = unbroadcast(grad_v36_plus_v37, v37)
    del grad_v36_plus_v37
    # while np.sum(v39 * v39) < 20.0 and n < 3:
    grad_v31 = zeros_like_grad(v31)
    for _ in range(n_iterations):
        sqrt_v31_sq_plus_1 = sqrt_v31_sq_plus_1_stack.pop()
        v39_times_c = v39_times_c_stack.pop()
        # v39 = v39 * 1.3 + np.sqrt((v31) ** 2 + 1.0)
        grad_v39_times_c = unbroadcast(grad_v39, v39_times_c)
        grad_sqrt_v31_sq_plus_1 = unbroadcast(grad_v39, sqrt_v31_sq_plus_1)
        grad_v31_sq = grad_sqrt_v31_sq_plus_1 / (2 * sqrt_v31_sq_plus_1)
        grad_v31 = add_into(grad_v31, grad_v31_sq * 2 * v31)
        grad_v39 = grad_v39_times_c * 1.3
    # v39 = x
    grad_x = grad_v39
    del grad_v39
    # v38 = np.clip((np.sort(v23, axis=-1)) * 0.5 + (v18), -1.0, np.abs((twice(v32)) / ((helper( ...
    grad_sort_v23_times_c_plus = unbroadcast(grad_v38
                                             * ((sort_v23_times_c_plus >= lower_bound(-1.0))
                                                & (sort_v23_times_c_plus
                                                   <= upper_bound(abs_twice_v32_over))),
                                             sort_v23_times_c_plus)
    grad_abs_twice_v32_over_2 = unbroadcast(grad_v38
                                            * (np.maximum(sort_v23_times_c_plus, lower_bound(-1.0))
                                               > abs_twice_v32_over), abs_twice_v32_over)
    del abs_twice_v32_over, grad_v38, sort_v23_times_c_plus
    grad_twice_v32_over_helper = abs_vjp(grad_abs_twice_v32_over_2, twice_v32_over_helper)
    del grad_abs_twice_v32_over_2
    grad_twice_v32 = unbroadcast(grad_twice_v32_over_helper / helper_v15_sq_plus_1, twice_v32)
    grad_helper_v15_sq = unbroadcast(-grad_twice_v32_over_helper * twice_v32_over_helper
                                     / helper_v15_sq_plus_1, helper_v15_sq_plus_1)
    del grad_twice_v32_over_helper, helper_v15_sq_plus_1, twice_v32_over_helper
    grad_helper_v15 = grad_helper_v15_sq * 2 * helper_v15
    del grad_helper_v15_sq, helper_v15
    grad_v15 = backward_helper(grad_helper_v15, helper_v15_saved)[0]
    del grad_helper_v15, helper_v15_saved
    grad_v32 = backward_twice(grad_twice_v32, twice_v32_saved)[0]
    del grad_twice_v32, twice_v32_saved
    grad_sort_v23_times_c = unbroadcast(grad_sort_v23_times_c_plus, sort_v23_times_c)
    grad_v18 = unbroadcast(grad_sort_v23_times_c_plus, v18)
    del grad_sort_v23_times_c_plus
    grad_sort_v23 = grad_sort_v23_times_c * 0.5
    del grad_sort_v23_times_c
    grad_v23 = untake_along_axis(grad_sort_v23, v23, np.argsort(v23, axis=-1, kind='stable'),
                                 axis=-1)
    del grad_sort_v23
    # if np.sum(v1) > 0:
    if sum_v1_gt_0:
        # v37 = helper(b=0.3, a=(v32) * (v0))
        grad_v32_times_v0 = backward_helper(grad_v37, v37_saved)[0]
        grad_v32 = grad_v32 + unbroadcast(grad_v32_times_v0 * v0, v32)
        grad_v0 = unbroadcast(grad_v32_times_v0 * v32, x)
        grad_v6 = zeros_like_grad(v6)
    else:
        # v37 = np.abs(np.exp(0.3 * v6))
        grad_exp_c_times_v6 = abs_vjp(grad_v37, exp_c_times_v6)
        grad_c_times_v6 = grad_exp_c_times_v6 * exp_c_times_v6
        grad_v6 = grad_c_times_v6 * 0.3
        grad_v0 = zeros_like_grad(v0)
    del grad_v37
    # while np.sum(v36 * v36) < 20.0 and n < 3:
    grad_v34 = zeros_like_grad(v34)
    for _ in range(n_iterations_2):
        v36_times_c = v36_times_c_stack.pop()
        # v36 = v36 * 1.3 + v34
        grad_v36_times_c = unbroadcast(grad_v36, v36_times_c)
        grad_v34 = add_into(grad_v34, unbroadcast(grad_v36, v34))
        grad_v36 = grad_v36_times_c * 1.3
    # v36 = x
    grad_x = grad_x + grad_v36
    del grad_v36
    # for i, row in enumerate(v15):
    grad_v15 = private_copy(grad_v15)
    for i in reversed(range(len(v15))):
        sin_row_times_i_plus_1 = sin_row_times_i_plus_1_stack.pop()
        sin_row = sin_row_stack.pop()
        # v34 = v34 + np.sin(row) * (i + 1.0)
        grad_v34_plus_sin_row_times_i = grad_v34
        v34 = v34_stack.pop()
        grad_v34 = unbroadcast(grad_v34_plus_sin_row_times_i, v34)
        grad_sin_row_times_i_plus_1 = unbroadcast(grad_v34_plus_sin_row_times_i,
                                                  sin_row_times_i_plus_1)
        grad_sin_row = unbroadcast(grad_sin_row_times_i_plus_1 * (i + 1.0), sin_row)
        grad_row = grad_sin_row * np.cos(row)
        # for i, row in enumerate(v15):
        grad_v15[i] = grad_v15[i] + grad_row
        row = row_stack.pop()
    del grad_v34
    # if np.sum(v23) > 0:
    if sum_v23_gt_0:
        # v32 = v3
        grad_v3 = grad_v32
    else:
        # v32 = x
        grad_x = add_into(grad_x, grad_v32)
        grad_v3 = zeros_like_grad(v3)
    del grad_v32
    # v31 = np.min(np.clip((v14) * (v15), -0.9, 0.8), axis=-1)
    grad_clip_v14_times_v15 = (unreduce(grad_v31, clip_v14_times_v15, axis=-1)
                               * tie_weights(clip_v14_times_v15, v31, axis=-1))
    del clip_v14_times_v15, grad_v31, v31
    grad_v14_times_v15 = (grad_clip_v14_times_v15
                          * ((v14_times_v15 >= lower_bound(-0.9))
                             & (v14_times_v15 <= upper_bound(0.8))))
    del grad_clip_v14_times_v15, v14_times_v15
    grad_v14 = unbroadcast(grad_v14_times_v15 * v15, v14)
    grad_v15 = add_into(grad_v15, unbroadcast(grad_v14_times_v15 * v14, v15))
    del grad_v14_times_v15
    # for _ in range(2):
    for _ in reversed(range(2)):
        # v23 += v6
        grad_v23_plus_v6 = grad_v23
        v23 = v23_stack.pop()
        grad_v23 = unbroadcast(grad_v23_plus_v6, v23)
        grad_v6 = add_into(grad_v6, unbroadcast(grad_v23_plus_v6, v6))
    del v23
    # v23 = y * 1.0
    grad_y = grad_v23
    del grad_v23
    # v18 = parts[0] + parts[1]
    grad_parts_2_0 = unbroadcast(grad_v18, parts_2_0)
    grad_parts_2_1 = unbroadcast(grad_v18, parts_2_1)
    del grad_v18
    grad_parts_2 = zeros_like_grad(parts_2)
    grad_parts_2[1] = grad_parts_2[1] + grad_parts_2_1
    del grad_parts_2_1
    grad_parts_2[0] = grad_parts_2[0] + grad_parts_2_0
    del grad_parts_2_0
    # for i in range(2):
    grad_v16 = zeros_like_grad(v16)
    for i in reversed(range(2)):
        neg_twice_v16 = neg_twice_v16_stack.pop()
        # parts.append(-(twice(v16)) * (i + 1.0))
        grad_neg_twice_v16_times_i = grad_parts_2.pop()
        grad_neg_twice_v16 = unbroadcast(grad_neg_twice_v16_times_i * (i + 1.0), neg_twice_v16)
        grad_twice_v16 = -grad_neg_twice_v16
        twice_v16_saved = twice_v16_saved_stack.pop()
        grad_v16 = add_into(grad_v16, backward_twice(grad_twice_v16, twice_v16_saved)[0])
    del grad_parts_2
    # v16 = np.cumprod(np.tanh(np.where((y) > (v3), v15, v8)), axis=0)
    grad_tanh_where_y_gt_v3 = cumprod_vjp(grad_v16, tanh_where_y_gt_v3, v16, axis=0)
    del grad_v16, v16
    grad_where_y_gt_v3 = grad_tanh_where_y_gt_v3 * (1 - tanh_where_y_gt_v3 ** 2)
    del grad_tanh_where_y_gt_v3, tanh_where_y_gt_v3
    grad_v15 = add_into(grad_v15, unbroadcast(np.where(y > v3, grad_where_y_gt_v3, 0), v15))
    del v15
    grad_v8 = unbroadcast(np.where(y > v3, 0, grad_where_y_gt_v3), v8)
    del grad_where_y_gt_v3
    # v15 = (helper(v4, (v2) if np.sum(v8) > 0 else (v11))) + (v1)
    grad_helper_v4 = unbroadcast(grad_v15, helper_v4)
    grad_v1 = unbroadcast(grad_v15, v1)
    del grad_v15
    grad_v4, grad_choice_4 = backward_helper_2(grad_helper_v4, helper_v4_saved)
    del grad_helper_v4, helper_v4_saved
    if sum_v8_gt_0:
        # v15 = (helper(v4, (v2) if np.sum(v8) > 0 else (v11))) + (v1)
        grad_v2 = grad_choice_4
        grad_v11 = zeros_like_grad(v11)
    else:
        # v15 = (helper(v4, (v2) if np.sum(v8) > 0 else (v11))) + (v1)
        grad_v11 = grad_choice_4
        grad_v2 = zeros_like_grad(v2)
    del grad_choice_4
    # for _ in range(0):
    for _ in reversed(range(0)):
        # v14 = np.sqrt(((v4) if np.sum(v13) > 0 else (v1)) ** 2 + 1.0)
        grad_choice_3_sq_plus_1 = grad_v14 / (2 * v14)
        v14 = v14_stack.pop()
        grad_choice_3 = grad_choice_3_sq_plus_1 * 2 * choice_3
        sum_v13_gt_0 = sum_v13_gt_0_stack.pop()
        if sum_v13_gt_0:
            # v14 = np.sqrt(((v4) if np.sum(v13) > 0 else (v1)) ** 2 + 1.0)
            grad_v4 = grad_v4 + grad_choice_3
            choice_3 = choice_3_stack.pop()
        else:
            # v14 = np.sqrt(((v4) if np.sum(v13) > 0 else (v1)) ** 2 + 1.0)
            grad_v1 = grad_v1 + grad_choice_3
            choice_3 = choice_3_stack.pop()
        grad_v14 = zeros_like_grad(v14)
    del choice_3, v14
    # v14 = x
    grad_x = add_into(grad_x, grad_v14)
    del grad_v14
    # while np.sum(v11 * v11) < 20.0 and n < 3:
    grad_v9 = zeros_like_grad(v9)
    for _ in range(n_iterations_3):
        helper_v9 = helper_v9_stack.pop()
        v11_times_c = v11_times_c_stack.pop()
        # v11 = v11 * 1.3 + helper(v9, 0.7)
        grad_v11_times_c = unbroadcast(grad_v11, v11_times_c)
        grad_helper_v9 = unbroadcast(grad_v11, helper_v9)
        helper_v9_saved = helper_v9_saved_stack.pop()
        grad_v9 = add_into(grad_v9, backward_helper(grad_helper_v9, helper_v9_saved)[0])
        grad_v11 = grad_v11_times_c * 1.3
    # v11 = x
    grad_x = add_into(grad_x, grad_v11)
    # if np.sum(v5) > 0:
    if sum_v5_gt_0:
        # v9 = np.cumsum(helper(y, v2), axis=-1)
        grad_helper_y = np.reshape(np.flip(np.cumsum(np.flip(grad_v9, axis=-1), axis=-1), axis=-1),
                                   np.shape(helper_y))
        grads_helper = backward_helper_2(grad_helper_y, helper_y_saved)
        grad_y = grad_y + grads_helper[0]
        grad_v2 = grad_v2 + grads_helper[1]
        grad_v5 = zeros_like_grad(v5)
    else:
        # v9 = ((v1) + (x)) * 0.5 + (np.cos(v5))
        grad_v1_plus_x_times_c = unbroadcast(grad_v9, v1_plus_x_times_c)
        grad_cos_v5 = unbroadcast(grad_v9, cos_v5)
        grad_v5 = -grad_cos_v5 * np.sin(v5)
        grad_v1_plus_x = grad_v1_plus_x_times_c * 0.5
        grad_v1 = grad_v1 + unbroadcast(grad_v1_plus_x, v1)
        grad_x = add_into(grad_x, unbroadcast(grad_v1_plus_x, x))
    del grad_v9
    # while np.sum(v8 * v8) < 20.0 and n < 3:
    for _ in range(n_iterations_4):
        clip_v2 = clip_v2_stack.pop()
        abs_v5_plus_c = abs_v5_plus_c_stack.pop()
        v8_times_c = v8_times_c_stack.pop()
        # v8 = v8 * 1.3 + np.clip(v2, -1.0, np.abs(v5) + 0.1)
        grad_v8_times_c = unbroadcast(grad_v8, v8_times_c)
        grad_clip_v2 = unbroadcast(grad_v8, clip_v2)
        grad_v2 = (grad_v2
                   + unbroadcast(grad_clip_v2
                                 * ((v2 >= lower_bound(-1.0)) & (v2 <= upper_bound(abs_v5_plus_c))),
                                 v2))
        grad_abs_v5 = unbroadcast(grad_clip_v2
                                  * (np.maximum(v2, lower_bound(-1.0)) > abs_v5_plus_c),
                                  abs_v5_plus_c)
        grad_v5 = add_into(grad_v5, abs_vjp(grad_abs_v5, v5))
        grad_v8 = grad_v8_times_c * 1.3
    del v5
    # v8 = x
    grad_x = add_into(grad_x, grad_v8)
    del grad_v8
    # v6 = np.minimum((twice(x)) if np.sum(np.where((v0) > (y), 1.5, v2)) > 0 else (y), x)
    grad_choice_2 = unbroadcast(grad_v6 * (choice_2 < x) + grad_v6 * (choice_2 == x) / 2, choice_2)
    grad_x = add_into(grad_x,
                      unbroadcast(grad_v6 * (x < choice_2) + grad_v6 * (choice_2 == x) / 2, x))
    if sum_where_v0_gt_y_gt_0:
        # v6 = np.minimum((twice(x)) if np.sum(np.where((v0) > (y), 1.5, v2)) > 0 else (y), x)
        grad_x = add_into(grad_x, backward_twice(grad_choice_2, choice_2_saved)[0])
    else:
        # v6 = np.minimum((twice(x)) if np.sum(np.where((v0) > (y), 1.5, v2)) > 0 else (y), x)
        grad_y = grad_y + grad_choice_2
    del grad_choice_2
    # v5 = p * 0.5 + q
    grad_p_times_c = unbroadcast(grad_v5, p_times_c)
    grad_q = unbroadcast(grad_v5, q)
    grad_p = grad_p_times_c * 0.5
    del grad_p_times_c
    # p, q = pair(np.minimum(v0, v1), np.clip(v1, -0.9, 0.8))
    grad_pair_minimum_v0 = [grad_p, grad_q]
    del grad_p, grad_q
    grad_minimum_v0, grad_clip_v1 = backward_pair(grad_pair_minimum_v0, pair_minimum_v0_saved)
    del grad_pair_minimum_v0, pair_minimum_v0_saved
    grad_v1 = grad_v1 + grad_clip_v1 * ((v1 >= lower_bound(-0.9)) & (v1 <= upper_bound(0.8)))
    del grad_clip_v1
    grad_v0 = add_into(grad_v0,
                       unbroadcast(grad_minimum_v0 * (v0 < v1) + grad_minimum_v0 * (v0 == v1) / 2,
                                   x))
    grad_v1 = add_into(grad_v1,
                       unbroadcast(grad_minimum_v0 * (v1 < v0) + grad_minimum_v0 * (v0 == v1) / 2,
                                   v1))
    del grad_minimum_v0
    # v4 = (v3) / (((np.prod(np.tanh(y), axis=-1, keepdims=True)) if np.sum(np.where((1.5) > (v2 ...
    grad_v3 = grad_v3 + unbroadcast(grad_v4 / choice_sq_plus_1, v3)
    grad_choice_sq = unbroadcast(-grad_v4 * v4 / choice_sq_plus_1, choice_sq_plus_1)
    del choice_sq_plus_1, grad_v4, v4
    grad_choice = grad_choice_sq * 2 * choice
    del grad_choice_sq
    if sum_where_c_gt_v2_gt_0:
        # v4 = (v3) / (((np.prod(np.tanh(y), axis=-1, keepdims=True)) if np.sum(np.where((1.5) > ...
        grad_tanh_y = (unreduce(grad_choice, y, axis=-1, keepdims=True)
                       * product_of_others(tanh_y, axis=-1))
        grad_y = grad_y + grad_tanh_y * (1 - tanh_y ** 2)
    else:
        # v4 = (v3) / (((np.prod(np.tanh(y), axis=-1, keepdims=True)) if np.sum(np.where((1.5) > ...
        if sum_v1_gt_0_3:
            # v4 = (v3) / (((np.prod(np.tanh(y), axis=-1, keepdims=True)) if np.sum(np.where((1. ...
            grad_v0 = add_into(grad_v0, grad_choice)
        else:
            # v4 = (v3) / (((np.prod(np.tanh(y), axis=-1, keepdims=True)) if np.sum(np.where((1. ...
            grad_v0 = add_into(grad_v0, grad_choice)
    del grad_choice
    # for i in range(3):
    for _ in range(n_iterations_5):
        i = i_stack.pop()
        # if np.sum(v3) > 0.18:
        sum_v3_gt_c = sum_v3_gt_c_stack.pop()
        if not sum_v3_gt_c:
            arctan2_y = arctan2_y_stack.pop()
            v2_sq_plus_1 = v2_sq_plus_1_stack.pop()
            # v3 = np.where(((y) / ((v3) ** 2 + 1.0)) > ((v0) * (v2)), np.hypot(v0, x), np.arcta ...
            grad_where_y_over_v3_sq_plus = grad_v3
            v3 = v3_stack.pop()
            grad_hypot_v0 = unbroadcast(np.where(y / (v3 ** 2 + 1.0) > v0 * v2,
                                                 grad_where_y_over_v3_sq_plus, 0), x)
            grad_arctan2_y = unbroadcast(np.where(y / (v3 ** 2 + 1.0) > v0 * v2, 0,
                                                  grad_where_y_over_v3_sq_plus), arctan2_y)
            grad_y = (grad_y
                      + unbroadcast(grad_arctan2_y * v2_sq_plus_1 / (y ** 2 + v2_sq_plus_1 ** 2),
                                    y))
            grad_v2_sq = unbroadcast(-grad_arctan2_y * y / (y ** 2 + v2_sq_plus_1 ** 2),
                                     v2_sq_plus_1)
            grad_v2 = grad_v2 + grad_v2_sq * 2 * v2
            grad_v0 = add_into(grad_v0, grad_hypot_v0 * v0 / hypot_v0)
            grad_x = add_into(grad_x, grad_hypot_v0 * x / hypot_v0)
            hypot_v0 = hypot_v0_stack.pop()
            grad_v3 = zeros_like_grad(v3)
    del hypot_v0, v2, v3
    # v3 = v0 * 1.0
    grad_v0 = add_into(grad_v0, grad_v3)
    del grad_v3
    # v2 = parts[0] + parts[1]
    grad_parts_0 = unbroadcast(grad_v2, parts_0)
    grad_parts_1 = unbroadcast(grad_v2, parts_1)
    grad_parts = zeros_like_grad(parts)
    grad_parts[1] = grad_parts[1] + grad_parts_1
    del grad_parts_1
    grad_parts[0] = grad_parts[0] + grad_parts_0
    del grad_parts_0
    # for i in range(2):
    for i in reversed(range(2)):
        hypot_c = hypot_c_stack.pop()
        helper_where_x_gt_y_2 = helper_where_x_gt_y_2_stack.pop()
        # parts.append(helper(np.where((x) > (y), v0, x), np.hypot(1.5, v1)) * (i + 1.0))
        grad_helper_where_x_gt_y = grad_parts.pop()
        grad_helper_where_x_gt_y_2 = unbroadcast(grad_helper_where_x_gt_y * (i + 1.0),
                                                 helper_where_x_gt_y_2)
        helper_where_x_gt_y_2_2 = helper_where_x_gt_y_2_2_stack.pop()
        grad_where_x_gt_y, grad_hypot_c = backward_helper_2(grad_helper_where_x_gt_y_2,
                                                            helper_where_x_gt_y_2_2)
        grad_v1 = add_into(grad_v1, grad_hypot_c * v1 / hypot_c)
        grad_v0 = add_into(grad_v0, unbroadcast(np.where(x > y, grad_where_x_gt_y, 0), x))
        grad_x = add_into(grad_x, unbroadcast(np.where(x > y, 0, grad_where_x_gt_y), x))
    del grad_parts
    # if np.sum(y) > 0:
    if sum_y_gt_0:
        # v1 = (np.sin(x)) ** 2
        grad_sin_x = grad_v1 * 2 * sin_x
        grad_x = add_into(grad_x, grad_sin_x * np.cos(x))
    else:
        # v1 = np.sqrt((np.where((y) > (1.5), 1.5, y)) ** 2 + 1.0)
        grad_where_y_gt_c_sq = grad_v1 / (2 * v1)
        grad_where_y_gt_c = grad_where_y_gt_c_sq * 2 * where_y_gt_c
        grad_y = grad_y + unbroadcast(np.where(y > 1.5, 0, grad_where_y_gt_c), y)
    del grad_v1
    # for _ in range(0):
    for _ in reversed(range(0)):
        sqrt_x_sq_plus_1 = sqrt_x_sq_plus_1_stack.pop()
        minimum_c_sq_plus_1 = minimum_c_sq_plus_1_stack.pop()
        minimum_c = minimum_c_stack.pop()
        # v0 = (np.sqrt((x) ** 2 + 1.0)) / ((np.minimum(1.5, x)) ** 2 + 1.0)
        grad_sqrt_x_sq_plus_1 = grad_v0 / minimum_c_sq_plus_1
        grad_minimum_c_sq_plus_1 = -grad_v0 * v0 / minimum_c_sq_plus_1
        v0 = v0_stack.pop()
        grad_minimum_c = grad_minimum_c_sq_plus_1 * 2 * minimum_c
        grad_x = add_into(grad_x, grad_minimum_c * (x < 1.5) + grad_minimum_c * (1.5 == x) / 2)
        grad_x_sq = grad_sqrt_x_sq_plus_1 / (2 * sqrt_x_sq_plus_1)
        grad_x = add_into(grad_x, grad_x_sq * 2 * x)
        grad_v0 = zeros_like_grad(v0)
    del v0
    # v0 = x
    grad_x = add_into(grad_x, grad_v0)
    return as_gradient(grad_x, x), as_gradient(grad_y, y)


def forward_helper(a, b):
    # return np.sin(a) * b + a
    sin_a_times_b = np.sin(a) * b
    helper_value = sin_a_times_b + a
    # the backward sweep reads only the shapes of these: let their elements go
    sin_a_times_b = shape_only(sin_a_times_b)
    return helper_value, (sin_a_times_b, a, b)


def backward_helper(grad_helper_value, saved):
    sin_a_times_b, a, b = saved
    # return np.sin(a) * b + a
    grad_sin_a_times_b = unbroadcast(grad_helper_value, sin_a_times_b)
    grad_a = unbroadcast(grad_helper_value, a)
    grad_sin_a = unbroadcast(grad_sin_a_times_b * b, a)
    del grad_sin_a_times_b
    grad_a = grad_a + grad_sin_a * np.cos(a)
    return grad_a,


def forward_twice(a):
    # return helper(a, a * 0.5) + helper(b=0.3, a=a)
    helper_a, helper_a_saved = forward_helper_2(a, a * 0.5)
    helper_2, helper_2_saved = forward_helper(b=0.3, a=a)
    twice_value = helper_a + helper_2
    # the backward sweep reads only the shapes of these: let their elements go
    helper_2 = shape_only(helper_2)
    helper_a = shape_only(helper_a)
    return twice_value, (helper_a, helper_2, helper_2_saved, helper_a_saved)


def backward_twice(grad_twice_value, saved):
    helper_a, helper_2, helper_2_saved, helper_a_saved = saved
    # return helper(a, a * 0.5) + helper(b=0.3, a=a)
    grad_helper_a = unbroadcast(grad_twice_value, helper_a)
    grad_helper_2 = unbroadcast(grad_twice_value, helper_2)
    grad_a = backward_helper(grad_helper_2, helper_2_saved)[0]
    del grad_helper_2, helper_2_saved
    grads_helper = backward_helper_2(grad_helper_a, helper_a_saved)
    del grad_helper_a, helper_a_saved
    grad_a = grad_a + grads_helper[0]
    grad_a_times_c = grads_helper[1]
    del grads_helper
    grad_a = add_into(grad_a, grad_a_times_c * 0.5)
    return grad_a,


def forward_helper(a, b):
    # return np.sin(a) * b + a
    sin_a = np.sin(a)
    sin_a_times_b = sin_a * b
    helper_value = sin_a_times_b + a
    # the backward sweep reads only the shapes of these: let their elements go
    sin_a_times_b = shape_only(sin_a_times_b)
    return helper_value, (sin_a_times_b, a, b, sin_a)


def backward_helper(grad_helper_value, saved):
    sin_a_times_b, a, b, sin_a = saved
    # return np.sin(a) * b + a
    grad_sin_a_times_b = unbroadcast(grad_helper_value, sin_a_times_b)
    grad_a = unbroadcast(grad_helper_value, a)
    grad_sin_a = unbroadcast(grad_sin_a_times_b * b, a)
    grad_b = unbroadcast(grad_sin_a_times_b * sin_a, b)
    del grad_sin_a_times_b, sin_a
    grad_a = grad_a + grad_sin_a * np.cos(a)
    return grad_a, grad_b


def forward_pair(a, b):
    # return a * b, a - np.tanh(b)
    a_times_b = a * b
    tanh_b = np.tanh(b)
    result = a_times_b, a - tanh_b
    return result, (a, b, tanh_b)


def backward_pair(grad_result, saved):
    a, b, tanh_b = saved
    # return a * b, a - np.tanh(b)
    grad_a_times_b = grad_result[0]
    grad_a_minus_tanh_b = grad_result[1]
    grad_a = unbroadcast(grad_a_minus_tanh_b, a)
    grad_tanh_b = unbroadcast(-grad_a_minus_tanh_b, b)
    del grad_a_minus_tanh_b
    grad_b = grad_tanh_b * (1 - tanh_b ** 2)
    del grad_tanh_b, tanh_b
    grad_a = grad_a + unbroadcast(grad_a_times_b * b, a)
    grad_b = add_into(grad_b, unbroadcast(grad_a_times_b * a, b))
    return grad_a, grad_b
