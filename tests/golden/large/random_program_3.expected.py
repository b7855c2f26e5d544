def grad_f(x, y):
    v0 = y * 1.0
    # for _ in range(1):
    v0_stack = []
    clip_maximum_c_stack = []
    abs_min_c_plus_c_stack = []
    maximum_c_stack = []
    for _ in range(1):
        # v0 += np.clip(np.maximum(1.5, v0), -1.0, np.abs(np.min(1.5, axis=0, keepdims=True)) + 0.1)
        maximum_c = np.maximum(1.5, v0)
        maximum_c_stack.append(maximum_c)
        abs_min_c_plus_c = np.abs(np.min(1.5, axis=0, keepdims=True)) + 0.1
        abs_min_c_plus_c_stack.append(abs_min_c_plus_c)
        clip_maximum_c = np.clip(maximum_c, -1.0, abs_min_c_plus_c)
        clip_maximum_c_stack.append(shape_only(clip_maximum_c))
        v0_plus_clip_maximum_c = v0 + clip_maximum_c
        v0_stack.append(v0)
        v0 = v0_plus_clip_maximum_c
    # if np.sum(x) > 0:
    sum_x_gt_0_2 = np.sum(x) > 0
    if sum_x_gt_0_2:
        v1 = y
    else:
        v1 = np.hypot(x, x)
    v2 = x
    n = 0
    # while np.sum(v2 * v2) < 20.0 and n < 3:
    v2_times_c_stack = []
    n_iterations_3 = 0
    while np.sum(v2 * v2) < 20.0 and n < 3:
        n_iterations_3 += 1
        # v2 = v2 * 1.3 + v0
        v2_times_c = v2 * 1.3
        v2_times_c_stack.append(shape_only(v2_times_c))
        v2 = v2_times_c + v0
        n = n + 1
    v3 = v1 * 1.0
    # for i in range(4):
    v3_stack = []
    neg_v1_stack = []
    sum_v3_gt_c_stack = []
    for i in range(4):
        # if np.sum(v3) > 0.46:
        sum_v3_gt_c = np.sum(v3) > 0.46
        sum_v3_gt_c_stack.append(sum_v3_gt_c)
        if sum_v3_gt_c:
            pass
        else:
            # v3 = (-(v1)) * (v3)
            neg_v1 = -v1
            neg_v1_stack.append(neg_v1)
            neg_v1_times_v3 = neg_v1 * v3
            v3_stack.append(v3)
            v3 = neg_v1_times_v3
    # if np.sum(v3) > 0:
    sum_v3_gt_0_3 = np.sum(v3) > 0
    if sum_v3_gt_0_3:
        # v4 = np.maximum(math.tanh(np.mean(v1)), np.clip(x, -1.0, np.abs(1.5) + 0.1))
        mean_v1 = np.mean(v1)
        tanh_mean_v1 = math.tanh(mean_v1)
        abs_c_plus_c = np.abs(1.5) + 0.1
        clip_x = np.clip(x, -1.0, abs_c_plus_c)
        v4 = np.maximum(tanh_mean_v1, clip_x)
    else:
        # v4 = np.hypot(1.5, (v2) if np.sum(x) > 0 else (v3))
        sum_x_gt_0 = np.sum(x) > 0
        if sum_x_gt_0:
            # v4 = np.hypot(1.5, (v2) if np.sum(x) > 0 else (v3))
            choice = v2
        else:
            # v4 = np.hypot(1.5, (v2) if np.sum(x) > 0 else (v3))
            choice = v3
        v4 = np.hypot(1.5, choice)
    # p, q = pair(helper(v2, y), 1.5)
    helper_v2, helper_v2_saved = forward_helper(v2, y)
    pair_helper_v2, pair_helper_v2_saved = forward_pair_2(helper_v2, 1.5)
    p, q = pair_helper_v2
    # v5 = p * 0.5 + q
    p_times_c = p * 0.5
    v5 = p_times_c + q
    # v6 = np.mean(helper((x) - (x), 0.7))
    helper_x_minus_x, helper_x_minus_x_saved = forward_helper_2(x - x, 0.7)
    v6 = np.mean(helper_x_minus_x)
    # if np.sum(v3) > 0:
    sum_v3_gt_0_2 = np.sum(v3) > 0
    if sum_v3_gt_0_2:
        # v7 = helper(helper(x, y), v6)
        helper_x, helper_x_saved = forward_helper(x, y)
        v7, v7_saved = forward_helper(helper_x, v6)
    else:
        v7 = v1
    # v8 = np.tanh(np.clip(np.minimum(v4, v5), -0.9, 0.8))
    minimum_v4 = np.minimum(v4, v5)
    v8 = np.tanh(np.clip(minimum_v4, -0.9, 0.8))
    # v9 = np.clip(np.arctan2(np.hypot(1.5, v1), (helper(v6, v2)) ** 2 + 1.0), -1.0, np.abs(np.s ...
    hypot_c = np.hypot(1.5, v1)
    helper_v6, helper_v6_saved = forward_helper(v6, v2)
    helper_v6_sq_plus_1 = helper_v6 ** 2 + 1.0
    arctan2_hypot_c = np.arctan2(hypot_c, helper_v6_sq_plus_1)
    cumsum_v7 = np.cumsum(v7, axis=-1)
    sort_cumsum_v7 = np.sort(cumsum_v7, axis=-1)
    abs_sort_cumsum_v7_plus = np.abs(sort_cumsum_v7) + 0.1
    v9 = np.clip(arctan2_hypot_c, -1.0, abs_sort_cumsum_v7_plus)
    v10 = 0.0
    # for row, other in zip(v0, x):
    v10_stack = []
    sin_row_times_other_stack = []
    sin_row_stack = []
    other_stack_4 = []
    row_stack_5 = []
    other = None
    row = None
    for i_2 in range(min(len(v0), len(x))):
        # for row, other in zip(v0, x):
        row_stack_5.append(row)
        row = v0[i_2]
        other_stack_4.append(other)
        other = x[i_2]
        # v10 = v10 + np.sin(row) * other
        sin_row = np.sin(row)
        sin_row_stack.append(sin_row)
        sin_row_times_other = sin_row * other
        sin_row_times_other_stack.append(shape_only(sin_row_times_other))
        v10_plus_sin_row_times = v10 + sin_row_times_other
        v10_stack.append(v10)
        v10 = v10_plus_sin_row_times
    v11 = v7 * 1.0
    # for i in range(3):
    v11_stack = []
    sum_v11_gt_c_stack = []
    for i in range(3):
        # if np.sum(v11) > 0.48:
        sum_v11_gt_c = np.sum(v11) > 0.48
        sum_v11_gt_c_stack.append(sum_v11_gt_c)
        if sum_v11_gt_c:
            pass
        else:
            # v11 = x
            v11_stack.append(shape_only(v11))
            v11 = x
    v12 = v3
    v13 = x
    n = 0
    # while np.sum(v13 * v13) < 20.0 and n < 3:
    where_v3_gt_0_stack = []
    v13_times_c_stack = []
    n_iterations_2 = 0
    while np.sum(v13 * v13) < 20.0 and n < 3:
        n_iterations_2 += 1
        # v13 = v13 * 1.3 + np.where((v3) > 0, v9, 0.5)
        v13_times_c = v13 * 1.3
        v13_times_c_stack.append(shape_only(v13_times_c))
        where_v3_gt_0 = np.where(v3 > 0, v9, 0.5)
        where_v3_gt_0_stack.append(shape_only(where_v3_gt_0))
        v13 = v13_times_c + where_v3_gt_0
        n = n + 1
    v14 = y * 1.0
    # for _ in range(2):
    v14_stack = []
    cumsum_x_stack = []
    for _ in range(2):
        # v14 += np.cumsum(x, axis=-1)
        cumsum_x = np.cumsum(x, axis=-1)
        cumsum_x_stack.append(shape_only(cumsum_x))
        v14_plus_cumsum_x = v14 + cumsum_x
        v14_stack.append(v14)
        v14 = v14_plus_cumsum_x
    v15 = np.prod(np.tanh(v6), axis=-1, keepdims=True)
    v16 = y * 1.0
    # for _ in range(1):
    v16_stack = []
    v8_minus_v12_times_c_stack = []
    v12_times_c_plus_v3_stack = []
    v12_times_c_stack = []
    for _ in range(1):
        # v16 += (v8) - ((v12) * 0.5 + (v3))
        v12_times_c = v12 * 0.5
        v12_times_c_stack.append(shape_only(v12_times_c))
        v12_times_c_plus_v3 = v12_times_c + v3
        v12_times_c_plus_v3_stack.append(shape_only(v12_times_c_plus_v3))
        v8_minus_v12_times_c = v8 - v12_times_c_plus_v3
        v8_minus_v12_times_c_stack.append(shape_only(v8_minus_v12_times_c))
        v16_plus_v8_minus_v12 = v16 + v8_minus_v12_times_c
        v16_stack.append(v16)
        v16 = v16_plus_v8_minus_v12
    # v17 = np.mean((np.sqrt((v8) ** 2 + 1.0)) * 0.5 + ((v6) * (v8)), axis=-1, keepdims=True)
    sqrt_v8_sq_plus_1 = np.sqrt(v8 ** 2 + 1.0)
    sqrt_v8_sq_plus_1_times_2 = sqrt_v8_sq_plus_1 * 0.5
    v6_times_v8 = v6 * v8
    sqrt_v8_sq_plus_1_times = sqrt_v8_sq_plus_1_times_2 + v6_times_v8
    v17 = np.mean(sqrt_v8_sq_plus_1_times, axis=-1, keepdims=True)
    # v18 = np.where((np.where((np.clip(1.5, -0.9, 0.8)) > (np.minimum(y, v11)), x, (v14) if np. ...
    if np.sum(v11) > 0:
        # v18 = np.where((np.where((np.clip(1.5, -0.9, 0.8)) > (np.minimum(y, v11)), x, (v14) if ...
        choice_2 = v14
    else:
        # v18 = np.where((np.where((np.clip(1.5, -0.9, 0.8)) > (np.minimum(y, v11)), x, (v14) if ...
        choice_2 = v15
    v18 = np.where(np.where(np.clip(1.5, -0.9, 0.8) > np.minimum(y, v11), x, choice_2) > 0,
                   v12 * 0.5 + np.where(v7 > v15, v8, v5), 0.5)
    # v19 = (np.prod(np.tanh(np.minimum(v16, y)), axis=-1, keepdims=True)) - (v1)
    tanh_minimum_v16 = np.tanh(np.minimum(v16, y))
    prod_tanh_minimum_v16 = np.prod(tanh_minimum_v16, axis=-1, keepdims=True)
    v19 = prod_tanh_minimum_v16 - v1
    v20 = x
    for _ in range(2):
        v20 = x
    v21 = v11 * 1.0
    # for i in range(2):
    where_v2_gt_0_times_i_stack = []
    where_v2_gt_0_stack = []
    v21_times_c_stack = []
    for i in range(2):
        for j in range(1):
            # v21 = v21 * 0.5 + np.where((v2) > 0, v6, 0.5) * (i - j + 0.5)
            v21_times_c = v21 * 0.5
            v21_times_c_stack.append(shape_only(v21_times_c))
            where_v2_gt_0 = np.where(v2 > 0, v6, 0.5)
            where_v2_gt_0_stack.append(shape_only(where_v2_gt_0))
            where_v2_gt_0_times_i = where_v2_gt_0 * (i - j + 0.5)
            where_v2_gt_0_times_i_stack.append(shape_only(where_v2_gt_0_times_i))
            v21 = v21_times_c + where_v2_gt_0_times_i
    # v22 = (np.linalg.norm(np.log((v6) ** 2 + 1.0)) * 0.5) + (np.maximum((v10) if np.sum(y) > 0 ...
    sum_y_gt_0 = np.sum(y) > 0
    if sum_y_gt_0:
        # v22 = (np.linalg.norm(np.log((v6) ** 2 + 1.0)) * 0.5) + (np.maximum((v10) if np.sum(y) ...
        choice_3 = v10
    else:
        # v22 = (np.linalg.norm(np.log((v6) ** 2 + 1.0)) * 0.5) + (np.maximum((v10) if np.sum(y) ...
        choice_3 = 1.5
    v6_sq_plus_1 = v6 ** 2 + 1.0
    log_v6_sq_plus_1 = np.log(v6_sq_plus_1)
    norm_log_v6_sq_plus_1_2 = np.linalg.norm(log_v6_sq_plus_1)
    norm_log_v6_sq_plus_1 = norm_log_v6_sq_plus_1_2 * 0.5
    tanh_v14 = np.tanh(v14)
    prod_tanh_v14 = np.prod(tanh_v14, axis=-1, keepdims=True)
    v22 = norm_log_v6_sq_plus_1 + np.maximum(choice_3, prod_tanh_v14)
    # if np.sum(v13) > 0:
    v23 = None
    sum_v13_gt_0 = np.sum(v13) > 0
    if sum_v13_gt_0:
        v23 = np.maximum(v2, y)
    else:
        v23 = y
    v24 = v14
    v25 = v8 * 1.0
    for i in range(1):
        # if np.sum(v25) > -0.30:
        if np.sum(v25) > -0.3:
            break
        else:
            # v25 = np.where((np.minimum(v1, v2)) > 0, np.minimum(v23, v0), 0.5)
            v25 = np.where(np.minimum(v1, v2) > 0, np.minimum(v23, v0), 0.5)
    v26 = 0.0
    # for row, other in zip(y, v9):
    other_stack_3 = []
    row_stack_4 = []
    for i_3 in range(min(len(y), len(v9))):
        # for row, other in zip(y, v9):
        row_stack_4.append(row)
        row = y[i_3]
        other_stack_3.append(other)
        other = v9[i_3]
        v26 = v26 + np.sin(row) * other
    # v27 = np.copy(np.tanh(v17))
    tanh_v17 = np.tanh(v17)
    v27 = np.copy(tanh_v17)
    # v27[-1] -= np.tanh(v27[0])
    v27_0_view = v27[0]
    tanh_v27_0 = np.tanh(np.copy(v27_0_view))
    v27[-1] -= tanh_v27_0
    # v27[0] = v27[-1] * 2.0
    v27_neg_1_times_2 = v27[-1] * 2.0
    v27[0] = v27_neg_1_times_2
    v28 = y * 1.0
    # for _ in range(2):
    v28_stack = []
    sort_v6_stack = []
    for _ in range(2):
        # v28 += np.sort(v6, axis=-1)
        sort_v6 = np.sort(v6, axis=-1)
        sort_v6_stack.append(shape_only(sort_v6))
        v28_plus_sort_v6 = v28 + sort_v6
        v28_stack.append(v28)
        v28 = v28_plus_sort_v6
    # v29 = np.linalg.norm(np.max(np.hypot(v22, v4), axis=-1, keepdims=True)) * 0.5
    hypot_v22 = np.hypot(v22, v4)
    max_hypot_v22 = np.max(hypot_v22, axis=-1, keepdims=True)
    norm_max_hypot_v22 = np.linalg.norm(max_hypot_v22)
    v29 = norm_max_hypot_v22 * 0.5
    # v30 = math.tanh(np.mean((np.exp(0.3 * v4)) * 0.5 + (np.sin(v19))))
    exp_c_times_v4 = np.exp(0.3 * v4)
    exp_c_times_v4_times_c_2 = exp_c_times_v4 * 0.5
    sin_v19 = np.sin(v19)
    exp_c_times_v4_times_c = exp_c_times_v4_times_c_2 + sin_v19
    mean_exp_c_times_v4 = np.mean(exp_c_times_v4_times_c)
    v30 = math.tanh(mean_exp_c_times_v4)
    v31 = v5
    # p, q = pair((v17) if np.sum(v3) > 0 else (v0), np.where((v13) > (v4), v4, v1))
    if np.sum(v3) > 0:
        # p, q = pair((v17) if np.sum(v3) > 0 else (v0), np.where((v13) > (v4), v4, v1))
        choice_4 = v17
    else:
        # p, q = pair((v17) if np.sum(v3) > 0 else (v0), np.where((v13) > (v4), v4, v1))
        choice_4 = v0
    p_2, q_2 = pair(choice_4, np.where(v13 > v4, v4, v1))
    # v32 = p * 0.5 + q
    v32 = p_2 * 0.5 + q_2
    v33 = v9 * 1.0
    for i in range(2):
        for j in range(1):
            v33 = v33 * 0.5 + v9 * (i - j + 0.5)
    v34 = np.copy(np.minimum(v14, v21))
    # v34[0] += np.sum((v22) - (v30))
    v34[0] += np.sum(v22 - v30)
    v34[-1] -= np.tanh(v34[0])
    v35 = x
    for _ in range(3):
        # v35 = (np.hypot(v31, v26)) ** 2
        v35 = np.hypot(v31, v26) ** 2
    v36 = 0.0
    # for row, other in zip(v9, v6):
    other_stack_2 = []
    row_stack_3 = []
    for i_4 in range(min(len(v9), len(v6))):
        # for row, other in zip(v9, v6):
        row_stack_3.append(row)
        row = v9[i_4]
        other_stack_2.append(other)
        other = v6[i_4]
        v36 = v36 + np.sin(row) * other
    v37 = v30
    parts = []
    for i in range(2):
        parts.append(v32 * (i + 1.0))
    v38 = parts[0] + parts[1]
    # v39 = np.minimum(helper(np.abs(v28), math.tanh(np.mean(v21))), v28)
    abs_v28 = np.abs(v28)
    mean_v21 = np.mean(v21)
    tanh_mean_v21 = math.tanh(mean_v21)
    helper_abs_v28, helper_abs_v28_saved = forward_helper(abs_v28, tanh_mean_v21)
    v39 = np.minimum(helper_abs_v28, v28)
    v40 = v28
    # if np.sum(v11) > 0:
    v41 = None
    sum_v11_gt_0 = np.sum(v11) > 0
    if sum_v11_gt_0:
        # v41 = np.maximum(np.exp(0.3 * v23), (v27) + (v12))
        exp_c_times_v23 = np.exp(0.3 * v23)
        v27_plus_v12 = v27 + v12
        v41 = np.maximum(exp_c_times_v23, v27_plus_v12)
    else:
        # v41 = np.arctan2(np.maximum(v14, v13), ((v9) * (v37)) ** 2 + 1.0)
        maximum_v14 = np.maximum(v14, v13)
        v9_times_v37 = v9 * v37
        v9_times_v37_sq_plus_1 = v9_times_v37 ** 2 + 1.0
        v41 = np.arctan2(maximum_v14, v9_times_v37_sq_plus_1)
    # if np.sum(v0) > 0:
    if np.sum(v0) > 0:
        v42 = np.tanh(np.hypot(v3, v5))
    else:
        v42 = v16
    # v43 = np.prod(np.tanh((v19) + ((v39) * 0.5 + (v35))) + 1.5)
    v43 = np.prod(np.tanh(v19 + (v39 * 0.5 + v35)) + 1.5)
    v44 = np.maximum(v15, 0.2)
    v45 = np.min(v31, axis=-1)
    v46 = v42
    # if np.sum(v21) > 0:
    if np.sum(v21) > 0:
        v47 = np.cumprod(np.tanh(np.maximum(v14, v4)), axis=0)
    else:
        v47 = np.clip(np.clip(v29, -1.0, np.abs(v30) + 0.1), -1.0,
                      np.abs(np.clip(v44, -1.0, np.abs(v34) + 0.1)) + 0.1)
    # v48 = (v39) * (np.linalg.norm(v19) * 0.5)
    v48 = v39 * (np.linalg.norm(v19) * 0.5)
    # v49 = np.copy(helper(v39, v9))
    helper_v39, helper_v39_saved = forward_helper(v39, v9)
    v49 = np.copy(helper_v39)
    # v49[0] += np.sum(np.hypot(v2, v4))
    hypot_v2 = np.hypot(v2, v4)
    sum_hypot_v2 = np.sum(hypot_v2)
    v49[0] += sum_hypot_v2
    # v49[0] = v49[-1] * 2.0
    v49_neg_1_times_2 = v49[-1] * 2.0
    v49[0] = v49_neg_1_times_2
    v50 = x
    n = 0
    # while np.sum(v50 * v50) < 20.0 and n < 3:
    v50_times_c_stack = []
    n_iterations = 0
    while np.sum(v50 * v50) < 20.0 and n < 3:
        n_iterations += 1
        # v50 = v50 * 1.3 + (v28) + (v30)
        v50_times_c = v50 * 1.3
        v50_times_c_stack.append(shape_only(v50_times_c))
        v50 = v50_times_c + v28 + v30
        n = n + 1
    v51 = x
    n = 0
    while np.sum(v51 * v51) < 20.0 and n < 3:
        # v51 = v51 * 1.3 + np.where((v23) > 0, v26, 0.5)
        v51 = v51 * 1.3 + np.where(v23 > 0, v26, 0.5)
        n = n + 1
    v52 = v47 * 1.0
    for i in range(2):
        for j in range(1):
            # v52 = v52 * 0.5 + (v7) - (v15) * (i - j + 0.5)
            v52 = v52 * 0.5 + v7 - v15 * (i - j + 0.5)
    v53 = 0.0
    # for i, row in enumerate(v41):
    v53_stack = []
    sin_row_times_i_plus_1_stack = []
    sin_row_2_stack = []
    row_stack_2 = []
    for i in range(len(v41)):
        # for i, row in enumerate(v41):
        row_stack_2.append(row)
        row = v41[i]
        # v53 = v53 + np.sin(row) * (i + 1.0)
        sin_row_2 = np.sin(row)
        sin_row_2_stack.append(shape_only(sin_row_2))
        sin_row_times_i_plus_1 = sin_row_2 * (i + 1.0)
        sin_row_times_i_plus_1_stack.append(shape_only(sin_row_times_i_plus_1))
        v53_plus_sin_row_times_i = v53 + sin_row_times_i_plus_1
        v53_stack.append(v53)
        v53 = v53_plus_sin_row_times_i
    v54 = y * 1.0
    for _ in range(1):
        # v54 += np.minimum((v36) if np.sum(v7) > 0 else (v53), np.prod(np.tanh(v8), axis=-1, ke ...
        if np.sum(v7) > 0:
            # v54 += np.minimum((v36) if np.sum(v7) > 0 else (v53), np.prod(np.tanh(v8), axis=-1 ...
            choice_5 = v36
        else:
            # v54 += np.minimum((v36) if np.sum(v7) > 0 else (v53), np.prod(np.tanh(v8), axis=-1 ...
            choice_5 = v53
        v54 = v54 + np.minimum(choice_5, np.prod(np.tanh(v8), axis=-1, keepdims=True))
    v55 = 0.0
    # for row, other in zip(v10, v53):
    v55_stack = []
    sin_row_times_other_2_stack = []
    sin_row_3_stack = []
    other_stack = []
    row_stack = []
    for i_5 in range(min(len(v10), len(v53))):
        # for row, other in zip(v10, v53):
        row_stack.append(row)
        row = v10[i_5]
        other_stack.append(other)
        other = v53[i_5]
        # v55 = v55 + np.sin(row) * other
        sin_row_3 = np.sin(row)
        sin_row_3_stack.append(sin_row_3)
        sin_row_times_other_2 = sin_row_3 * other
        sin_row_times_other_2_stack.append(shape_only(sin_row_times_other_2))
        v55_plus_sin_row_times = v55 + sin_row_times_other_2
        v55_stack.append(shape_only(v55))
        v55 = v55_plus_sin_row_times
    # if np.sum(v16) > 0:
    sum_v16_gt_0 = np.sum(v16) > 0
    if sum_v16_gt_0:
        v56 = v49
    else:
        # v56 = np.maximum((v17) if np.sum(v38) > 0 else (v29), helper(v55, v53))
        sum_v38_gt_0 = np.sum(v38) > 0
        if sum_v38_gt_0:
            # v56 = np.maximum((v17) if np.sum(v38) > 0 else (v29), helper(v55, v53))
            choice_6 = v17
        else:
            # v56 = np.maximum((v17) if np.sum(v38) > 0 else (v29), helper(v55, v53))
            choice_6 = v29
        helper_v55, helper_v55_saved = forward_helper(v55, v53)
        v56 = np.maximum(choice_6, helper_v55)
    # p, q = pair(v10, np.cumprod(np.tanh(v12), axis=0))
    tanh_v12 = np.tanh(v12)
    cumprod_tanh_v12 = np.cumprod(tanh_v12, axis=0)
    pair_v10, pair_v10_saved = forward_pair(v10, cumprod_tanh_v12)
    p_3, q_3 = pair_v10
    # v57 = p * 0.5 + q
    v57 = shape_of_elementwise(p_3, q_3)
    v58 = v10 * 1.0
    # for i in range(2):
    v58_stack = []
    sum_v58_gt_c_stack = []
    for i in range(2):
        # if np.sum(v58) > 0.56:
        sum_v58_gt_c = np.sum(v58) > 0.56
        sum_v58_gt_c_stack.append(sum_v58_gt_c)
        if sum_v58_gt_c:
            pass
        else:
            # v58 = v50
            v58_stack.append(shape_only(v58))
            v58 = v50
    v59 = v5 * 1.0
    # for i in range(3):
    v59_stack = []
    sum_v59_gt_c_stack = []
    for i in range(3):
        # if np.sum(v59) > 0.92:
        sum_v59_gt_c = np.sum(v59) > 0.92
        sum_v59_gt_c_stack.append(sum_v59_gt_c)
        if sum_v59_gt_c:
            pass
        else:
            # v59 = np.exp(0.3 * np.clip(v37, -0.9, 0.8))
            c_times_clip_v37 = 0.3 * np.clip(v37, -0.9, 0.8)
            v59_stack.append(v59)
            v59 = np.exp(c_times_clip_v37)
    # return np.sum(v56 + v57 + v58 + v59)
    v56_plus_v57 = shape_of_elementwise(v56, v57)
    v56_plus_v57_plus_v58_2 = shape_of_elementwise(v56_plus_v57, v58)
    v56_plus_v57_plus_v58 = shape_of_elementwise(v56_plus_v57_plus_v58_2, v59)
    # the backward sweep reads only the shapes of these: let their elements go
    exp_c_times_v4_times_c = shape_only(exp_c_times_v4_times_c)
    exp_c_times_v4_times_c_2 = shape_only(exp_c_times_v4_times_c_2)
    helper_x_minus_x = shape_only(helper_x_minus_x)
    p_times_c = shape_only(p_times_c)
    prod_tanh_minimum_v16 = shape_only(prod_tanh_minimum_v16)
    q = shape_only(q)
    q_3 = shape_only(q_3)
    sin_v19 = shape_only(sin_v19)
    sqrt_v8_sq_plus_1_times = shape_only(sqrt_v8_sq_plus_1_times)
    sqrt_v8_sq_plus_1_times_2 = shape_only(sqrt_v8_sq_plus_1_times_2)
    v11 = shape_only(v11)
    v12 = shape_only(v12)
    v17 = shape_only(v17)
    v21 = shape_only(v21)
    v23 = shape_only(v23)
    v27 = shape_only(v27)
    v27_neg_1_times_2 = shape_only(v27_neg_1_times_2)
    v49 = shape_only(v49)
    v49_neg_1_times_2 = shape_only(v49_neg_1_times_2)
    v50 = shape_only(v50)
    v55 = shape_only(v55)
    v58 = shape_only(v58)
    v6_times_v8 = shape_only(v6_times_v8)
    grad_f_value = 1.0
    # return np.sum(v56 + v57 + v58 + v59)
    grad_v56_plus_v57_plus_v58 = unreduce(grad_f_value, v56_plus_v57_plus_v58)
    grad_v56_plus_v57_plus_v58_2 = unbroadcast(grad_v56_plus_v57_plus_v58, v56_plus_v57_plus_v58_2)
    grad_v59 = unbroadcast(grad_v56_plus_v57_plus_v58, v59)
    grad_v56_plus_v57 = unbroadcast(grad_v56_plus_v57_plus_v58_2, v56_plus_v57)
    grad_v58 = unbroadcast(grad_v56_plus_v57_plus_v58_2, v58)
    del grad_v56_plus_v57_plus_v58_2
    grad_v56 = unbroadcast(grad_v56_plus_v57, v56)
    grad_v57 = unbroadcast(grad_v56_plus_v57, v57)
    del grad_v56_plus_v57
    # for i in range(3):
    grad_v37 = zeros_like_grad(v37)
    for i in reversed(range(3)):
        # if np.sum(v59) > 0.92:
        sum_v59_gt_c = sum_v59_gt_c_stack.pop()
        if not sum_v59_gt_c:
            # v59 = np.exp(0.3 * np.clip(v37, -0.9, 0.8))
            grad_c_times_clip_v37 = grad_v59 * v59
            v59 = v59_stack.pop()
            grad_clip_v37 = grad_c_times_clip_v37 * 0.3
            grad_v37 = add_into(grad_v37,
                                grad_clip_v37
                                * ((v37 >= lower_bound(-0.9)) & (v37 <= upper_bound(0.8))))
            grad_v59 = zeros_like_grad(v59)
    del v59
    # v59 = v5 * 1.0
    grad_v5 = grad_v59
    del grad_v59
    # for i in range(2):
    grad_v50 = zeros_like_grad(v50)
    for i in reversed(range(2)):
        # if np.sum(v58) > 0.56:
        sum_v58_gt_c = sum_v58_gt_c_stack.pop()
        if not sum_v58_gt_c:
            # v58 = v50
            grad_v50 = add_into(grad_v50, grad_v58)
            v58 = v58_stack.pop()
            grad_v58 = zeros_like_grad(v58)
    # v58 = v10 * 1.0
    grad_v10 = grad_v58
    del grad_v58
    # v57 = p * 0.5 + q
    grad_p_3_times_c = unbroadcast(grad_v57, p_3)
    grad_q_3 = unbroadcast(grad_v57, q_3)
    del grad_v57
    grad_p_3 = grad_p_3_times_c * 0.5
    del grad_p_3_times_c
    # p, q = pair(v10, np.cumprod(np.tanh(v12), axis=0))
    grad_pair_v10 = [grad_p_3, grad_q_3]
    del grad_p_3, grad_q_3
    grads_pair = backward_pair(grad_pair_v10, pair_v10_saved)
    del grad_pair_v10, pair_v10_saved
    grad_v10 = grad_v10 + grads_pair[0]
    grad_cumprod_tanh_v12 = grads_pair[1]
    del grads_pair
    grad_tanh_v12 = cumprod_vjp(grad_cumprod_tanh_v12, tanh_v12, cumprod_tanh_v12, axis=0)
    del cumprod_tanh_v12, grad_cumprod_tanh_v12
    grad_v12 = grad_tanh_v12 * (1 - tanh_v12 ** 2)
    del grad_tanh_v12, tanh_v12
    # if np.sum(v16) > 0:
    if sum_v16_gt_0:
        # v56 = v49
        grad_v49 = grad_v56
        grad_v17 = zeros_like_grad(v17)
        grad_v29 = zeros_like_grad(v29)
        grad_v53 = zeros_like_grad(v53)
        grad_v55 = zeros_like_grad(v55)
    else:
        # v56 = np.maximum((v17) if np.sum(v38) > 0 else (v29), helper(v55, v53))
        grad_choice_6 = unbroadcast(grad_v56 * (choice_6 > helper_v55)
                                    + grad_v56 * (choice_6 == helper_v55) / 2, choice_6)
        grad_helper_v55 = unbroadcast(grad_v56 * (helper_v55 > choice_6)
                                      + grad_v56 * (choice_6 == helper_v55) / 2, helper_v55)
        grad_v55, grad_v53 = backward_helper(grad_helper_v55, helper_v55_saved)
        if sum_v38_gt_0:
            # v56 = np.maximum((v17) if np.sum(v38) > 0 else (v29), helper(v55, v53))
            grad_v17 = grad_choice_6
            grad_v29 = zeros_like_grad(v29)
        else:
            # v56 = np.maximum((v17) if np.sum(v38) > 0 else (v29), helper(v55, v53))
            grad_v29 = grad_choice_6
            grad_v17 = zeros_like_grad(v17)
        grad_v49 = zeros_like_grad(v49)
    del grad_v56
    # for row, other in zip(v10, v53):
    grad_v53 = private_copy(grad_v53)
    for i_5 in reversed(range(min(len(v10), len(v53)))):
        sin_row_times_other_2 = sin_row_times_other_2_stack.pop()
        sin_row_3 = sin_row_3_stack.pop()
        # v55 = v55 + np.sin(row) * other
        grad_v55_plus_sin_row_times = grad_v55
        v55 = v55_stack.pop()
        grad_v55 = unbroadcast(grad_v55_plus_sin_row_times, v55)
        grad_sin_row_times_other_2 = unbroadcast(grad_v55_plus_sin_row_times, sin_row_times_other_2)
        grad_sin_row_3 = unbroadcast(grad_sin_row_times_other_2 * other, sin_row_3)
        grad_other = unbroadcast(grad_sin_row_times_other_2 * sin_row_3, other)
        grad_row = grad_sin_row_3 * np.cos(row)
        # for row, other in zip(v10, v53):
        grad_v53[i_5] = grad_v53[i_5] + grad_other
        other = other_stack.pop()
        grad_v10[i_5] = grad_v10[i_5] + grad_row
        row = row_stack.pop()
    # for i, row in enumerate(v41):
    grad_v41 = zeros_like_grad(v41)
    for i in reversed(range(len(v41))):
        sin_row_times_i_plus_1 = sin_row_times_i_plus_1_stack.pop()
        sin_row_2 = sin_row_2_stack.pop()
        # v53 = v53 + np.sin(row) * (i + 1.0)
        grad_v53_plus_sin_row_times_i = grad_v53
        v53 = v53_stack.pop()
        grad_v53 = unbroadcast(grad_v53_plus_sin_row_times_i, v53)
        grad_sin_row_times_i_plus_1 = unbroadcast(grad_v53_plus_sin_row_times_i,
                                                  sin_row_times_i_plus_1)
        grad_sin_row_2 = unbroadcast(grad_sin_row_times_i_plus_1 * (i + 1.0), sin_row_2)
        grad_row = grad_sin_row_2 * np.cos(row)
        # for i, row in enumerate(v41):
        grad_v41[i] = grad_v41[i] + grad_row
        row = row_stack_2.pop()
    del grad_v53, v41, v53
    # while np.sum(v50 * v50) < 20.0 and n < 3:
    grad_v28 = zeros_like_grad(v28)
    grad_v30 = zeros_like_grad(v30)
    for _ in range(n_iterations):
        v50_times_c = v50_times_c_stack.pop()
        # v50 = v50 * 1.3 + (v28) + (v30)
        grad_v50_times_c_plus_v28 = grad_v50
        grad_v30 = add_into(grad_v30, unbroadcast(grad_v50, v30))
        grad_v50_times_c = unbroadcast(grad_v50_times_c_plus_v28, v50_times_c)
        grad_v28 = add_into(grad_v28, unbroadcast(grad_v50_times_c_plus_v28, v28))
        grad_v50 = grad_v50_times_c * 1.3
    # v50 = x
    grad_x = grad_v50
    del grad_v50
    # v49[0] = v49[-1] * 2.0
    grad_v49_neg_1_times_2 = unbroadcast(written_into(grad_v49[0], v49), v49_neg_1_times_2)
    grad_v49 = private_copy(grad_v49)
    grad_v49[0] = 0.0
    grad_v49_neg_1 = grad_v49_neg_1_times_2 * 2.0
    del grad_v49_neg_1_times_2
    grad_v49[-1] = grad_v49[-1] + grad_v49_neg_1
    del grad_v49_neg_1
    # v49[0] += np.sum(np.hypot(v2, v4))
    grad_sum_hypot_v2 = np.copy(unbroadcast(grad_v49[0], sum_hypot_v2))
    grad_hypot_v2 = unreduce(grad_sum_hypot_v2, hypot_v2)
    grad_v2 = unbroadcast(grad_hypot_v2 * v2 / hypot_v2, v2)
    grad_v4 = unbroadcast(grad_hypot_v2 * v4 / hypot_v2, v4)
    del hypot_v2
    # v49 = np.copy(helper(v39, v9))
    grad_helper_v39 = unstack_like(grad_v49, helper_v39)
    del grad_v49, helper_v39
    grad_v39, grad_v9 = backward_helper(grad_helper_v39, helper_v39_saved)
    del grad_helper_v39, helper_v39_saved
    # if np.sum(v11) > 0:
    if sum_v11_gt_0:
        # v41 = np.maximum(np.exp(0.3 * v23), (v27) + (v12))
        grad_exp_c_times_v23 = unbroadcast(grad_v41 * (exp_c_times_v23 > v27_plus_v12)
                                           + grad_v41 * (exp_c_times_v23 == v27_plus_v12) / 2,
                                           exp_c_times_v23)
        grad_v27_plus_v12 = unbroadcast(grad_v41 * (v27_plus_v12 > exp_c_times_v23)
                                        + grad_v41 * (exp_c_times_v23 == v27_plus_v12) / 2,
                                        v27_plus_v12)
        grad_v27 = unbroadcast(grad_v27_plus_v12, v27)
        grad_v12 = add_into(grad_v12, unbroadcast(grad_v27_plus_v12, v12))
        grad_c_times_v23 = grad_exp_c_times_v23 * exp_c_times_v23
        grad_v23 = grad_c_times_v23 * 0.3
        grad_v13 = zeros_like_grad(v13)
        grad_v14 = zeros_like_grad(v14)
    else:
        # v41 = np.arctan2(np.maximum(v14, v13), ((v9) * (v37)) ** 2 + 1.0)
        grad_maximum_v14 = unbroadcast(grad_v41 * v9_times_v37_sq_plus_1
                                       / (maximum_v14 ** 2 + v9_times_v37_sq_plus_1 ** 2),
                                       maximum_v14)
        grad_v9_times_v37_sq = unbroadcast(-grad_v41 * maximum_v14
                                           / (maximum_v14 ** 2 + v9_times_v37_sq_plus_1 ** 2),
                                           v9_times_v37_sq_plus_1)
        grad_v9_times_v37 = grad_v9_times_v37_sq * 2 * v9_times_v37
        grad_v9 = grad_v9 + grad_v9_times_v37 * v37
        grad_v37 = add_into(grad_v37, unbroadcast(grad_v9_times_v37 * v9, v37))
        grad_v14 = unbroadcast(grad_maximum_v14 * (v14 > v13) + grad_maximum_v14 * (v14 == v13) / 2,
                               v14)
        grad_v13 = unbroadcast(grad_maximum_v14 * (v13 > v14) + grad_maximum_v14 * (v14 == v13) / 2,
                               v13)
        grad_v23 = zeros_like_grad(v23)
        grad_v27 = zeros_like_grad(v27)
    del grad_v41, v13
    # v39 = np.minimum(helper(np.abs(v28), math.tanh(np.mean(v21))), v28)
    grad_helper_abs_v28 = unbroadcast(grad_v39 * (helper_abs_v28 < v28)
                                      + grad_v39 * (helper_abs_v28 == v28) / 2, helper_abs_v28)
    grad_v28 = add_into(grad_v28,
                        unbroadcast(grad_v39 * (v28 < helper_abs_v28)
                                    + grad_v39 * (helper_abs_v28 == v28) / 2, v28))
    del grad_v39, helper_abs_v28
    grad_abs_v28, grad_tanh_mean_v21 = backward_helper(grad_helper_abs_v28, helper_abs_v28_saved)
    del grad_helper_abs_v28, helper_abs_v28_saved
    grad_mean_v21 = grad_tanh_mean_v21 * (1 - tanh_mean_v21 * tanh_mean_v21)
    grad_v21 = unreduce(grad_mean_v21 / reduced_count(v21, mean_v21), v21)
    grad_v28 = add_into(grad_v28, abs_vjp(grad_abs_v28, v28))
    del grad_abs_v28
    # v37 = v30
    grad_v30 = add_into(grad_v30, grad_v37)
    # for row, other in zip(v9, v6):
    for i_4 in reversed(range(min(len(v9), len(v6)))):
        # for row, other in zip(v9, v6):
        other = other_stack_2.pop()
        row = row_stack_3.pop()
    # v30 = math.tanh(np.mean((np.exp(0.3 * v4)) * 0.5 + (np.sin(v19))))
    grad_mean_exp_c_times_v4 = grad_v30 * (1 - v30 * v30)
    grad_exp_c_times_v4_times_c = unreduce(grad_mean_exp_c_times_v4
                                           / reduced_count(exp_c_times_v4_times_c,
                                                           mean_exp_c_times_v4),
                                           exp_c_times_v4_times_c)
    grad_sin_v19 = unbroadcast(grad_exp_c_times_v4_times_c, sin_v19)
    grad_v19 = grad_sin_v19 * np.cos(v19)
    del grad_sin_v19, v19
    grad_exp_c_times_v4_times_c_2 = unbroadcast(grad_exp_c_times_v4_times_c,
                                                exp_c_times_v4_times_c_2)
    grad_exp_c_times_v4 = grad_exp_c_times_v4_times_c_2 * 0.5
    del grad_exp_c_times_v4_times_c_2
    grad_c_times_v4 = grad_exp_c_times_v4 * exp_c_times_v4
    del exp_c_times_v4, grad_exp_c_times_v4
    grad_v4 = add_into(grad_v4, grad_c_times_v4 * 0.3)
    del grad_c_times_v4
    # v29 = np.linalg.norm(np.max(np.hypot(v22, v4), axis=-1, keepdims=True)) * 0.5
    grad_norm_max_hypot_v22 = grad_v29 * 0.5
    grad_max_hypot_v22 = (unreduce(grad_norm_max_hypot_v22, max_hypot_v22)
                          * norm_derivative(max_hypot_v22, norm_max_hypot_v22))
    grad_hypot_v22 = (unreduce(grad_max_hypot_v22, hypot_v22, axis=-1, keepdims=True)
                      * tie_weights(hypot_v22, max_hypot_v22, axis=-1, keepdims=True))
    del grad_max_hypot_v22, max_hypot_v22
    grad_v22 = unbroadcast(grad_hypot_v22 * v22 / hypot_v22, v22)
    del v22
    grad_v4 = add_into(grad_v4, unbroadcast(grad_hypot_v22 * v4 / hypot_v22, v4))
    del grad_hypot_v22, hypot_v22
    # for _ in range(2):
    grad_v6 = zeros_like_grad(v6)
    for _ in reversed(range(2)):
        sort_v6 = sort_v6_stack.pop()
        # v28 += np.sort(v6, axis=-1)
        grad_v28_plus_sort_v6 = grad_v28
        v28 = v28_stack.pop()
        grad_v28 = unbroadcast(grad_v28_plus_sort_v6, v28)
        grad_sort_v6 = unbroadcast(grad_v28_plus_sort_v6, sort_v6)
        grad_v6 = add_into(grad_v6,
                           untake_along_axis(grad_sort_v6, v6,
                                             np.argsort(v6, axis=-1, kind='stable'), axis=-1))
    del v28
    # v28 = y * 1.0
    grad_y = grad_v28
    del grad_v28
    # v27[0] = v27[-1] * 2.0
    grad_v27_neg_1_times_2 = unbroadcast(written_into(grad_v27[0], v27), v27_neg_1_times_2)
    grad_v27 = private_copy(grad_v27)
    grad_v27[0] = 0.0
    grad_v27_neg_1 = grad_v27_neg_1_times_2 * 2.0
    del grad_v27_neg_1_times_2
    grad_v27[-1] = grad_v27[-1] + grad_v27_neg_1
    del grad_v27_neg_1
    # v27[-1] -= np.tanh(v27[0])
    grad_tanh_v27_0 = -unbroadcast(grad_v27[-1], tanh_v27_0)
    grad_v27_0 = grad_tanh_v27_0 * (1 - tanh_v27_0 ** 2)
    del grad_tanh_v27_0, tanh_v27_0
    grad_v27_0_view = unstack_like(grad_v27_0, v27_0_view)
    del grad_v27_0, v27_0_view
    grad_v27[0] = add_grads(grad_v27[0], grad_v27_0_view)
    del grad_v27_0_view
    # v27 = np.copy(np.tanh(v17))
    grad_tanh_v17 = unstack_like(grad_v27, tanh_v17)
    del grad_v27
    grad_v17 = grad_v17 + grad_tanh_v17 * (1 - tanh_v17 ** 2)
    del grad_tanh_v17, tanh_v17
    # for row, other in zip(y, v9):
    for i_3 in reversed(range(min(len(y), len(v9)))):
        # for row, other in zip(y, v9):
        other = other_stack_3.pop()
        row = row_stack_4.pop()
    # if np.sum(v13) > 0:
    if sum_v13_gt_0:
        # v23 = np.maximum(v2, y)
        grad_v2 = add_into(grad_v2, unbroadcast(grad_v23 * (v2 > y) + grad_v23 * (v2 == y) / 2, v2))
        grad_y = grad_y + unbroadcast(grad_v23 * (y > v2) + grad_v23 * (v2 == y) / 2, y)
    else:
        # v23 = y
        grad_y = grad_y + grad_v23
    # v22 = (np.linalg.norm(np.log((v6) ** 2 + 1.0)) * 0.5) + (np.maximum((v10) if np.sum(y) > 0 ...
    grad_norm_log_v6_sq_plus_1 = unbroadcast(grad_v22, norm_log_v6_sq_plus_1)
    grad_maximum_choice_3 = grad_v22
    del grad_v22
    grad_choice_3 = unbroadcast(grad_maximum_choice_3 * (choice_3 > prod_tanh_v14)
                                + grad_maximum_choice_3 * (choice_3 == prod_tanh_v14) / 2, choice_3)
    grad_prod_tanh_v14 = unbroadcast(grad_maximum_choice_3 * (prod_tanh_v14 > choice_3)
                                     + grad_maximum_choice_3 * (choice_3 == prod_tanh_v14) / 2,
                                     prod_tanh_v14)
    del grad_maximum_choice_3, prod_tanh_v14
    grad_tanh_v14 = (unreduce(grad_prod_tanh_v14, tanh_v14, axis=-1, keepdims=True)
                     * product_of_others(tanh_v14, axis=-1))
    del grad_prod_tanh_v14
    grad_v14 = add_into(grad_v14, grad_tanh_v14 * (1 - tanh_v14 ** 2))
    del grad_tanh_v14, tanh_v14
    grad_norm_log_v6_sq_plus_1_2 = grad_norm_log_v6_sq_plus_1 * 0.5
    grad_log_v6_sq_plus_1 = (unreduce(grad_norm_log_v6_sq_plus_1_2, log_v6_sq_plus_1)
                             * norm_derivative(log_v6_sq_plus_1, norm_log_v6_sq_plus_1_2))
    grad_v6_sq = grad_log_v6_sq_plus_1 / v6_sq_plus_1
    grad_v6 = add_into(grad_v6, grad_v6_sq * 2 * v6)
    if sum_y_gt_0:
        # v22 = (np.linalg.norm(np.log((v6) ** 2 + 1.0)) * 0.5) + (np.maximum((v10) if np.sum(y) ...
        grad_v10 = add_into(grad_v10, grad_choice_3)
    del grad_choice_3
    # for i in range(2):
    for i in reversed(range(2)):
        # for j in range(1):
        for j in reversed(range(1)):
            where_v2_gt_0_times_i = where_v2_gt_0_times_i_stack.pop()
            where_v2_gt_0 = where_v2_gt_0_stack.pop()
            v21_times_c = v21_times_c_stack.pop()
            # v21 = v21 * 0.5 + np.where((v2) > 0, v6, 0.5) * (i - j + 0.5)
            grad_v21_times_c = unbroadcast(grad_v21, v21_times_c)
            grad_where_v2_gt_0_times_i = unbroadcast(grad_v21, where_v2_gt_0_times_i)
            grad_where_v2_gt_0 = unbroadcast(grad_where_v2_gt_0_times_i * (i - j + 0.5),
                                             where_v2_gt_0)
            grad_v6 = add_into(grad_v6, unbroadcast(np.where(v2 > 0, grad_where_v2_gt_0, 0), v6))
            grad_v21 = grad_v21_times_c * 0.5
    del v2
    # v21 = v11 * 1.0
    grad_v11 = grad_v21
    # v19 = (np.prod(np.tanh(np.minimum(v16, y)), axis=-1, keepdims=True)) - (v1)
    grad_prod_tanh_minimum_v16 = unbroadcast(grad_v19, prod_tanh_minimum_v16)
    grad_v1 = unbroadcast(-grad_v19, v1)
    del grad_v19
    grad_tanh_minimum_v16 = (unreduce(grad_prod_tanh_minimum_v16, tanh_minimum_v16, axis=-1,
                                      keepdims=True) * product_of_others(tanh_minimum_v16, axis=-1))
    del grad_prod_tanh_minimum_v16
    grad_minimum_v16 = grad_tanh_minimum_v16 * (1 - tanh_minimum_v16 ** 2)
    del grad_tanh_minimum_v16, tanh_minimum_v16
    grad_v16 = unbroadcast(grad_minimum_v16 * (v16 < y) + grad_minimum_v16 * (v16 == y) / 2, v16)
    grad_y = add_into(grad_y,
                      unbroadcast(grad_minimum_v16 * (y < v16) + grad_minimum_v16 * (v16 == y) / 2,
                                  y))
    del grad_minimum_v16
    # v17 = np.mean((np.sqrt((v8) ** 2 + 1.0)) * 0.5 + ((v6) * (v8)), axis=-1, keepdims=True)
    grad_sqrt_v8_sq_plus_1_times = unreduce(grad_v17 / reduced_count(sqrt_v8_sq_plus_1_times, v17),
                                            sqrt_v8_sq_plus_1_times, axis=-1, keepdims=True)
    del grad_v17
    grad_v6_times_v8 = unbroadcast(grad_sqrt_v8_sq_plus_1_times, v6_times_v8)
    grad_v6 = add_into(grad_v6, unbroadcast(grad_v6_times_v8 * v8, v6))
    grad_v8 = grad_v6_times_v8 * v6
    del grad_v6_times_v8
    grad_sqrt_v8_sq_plus_1_times_2 = unbroadcast(grad_sqrt_v8_sq_plus_1_times,
                                                 sqrt_v8_sq_plus_1_times_2)
    grad_sqrt_v8_sq_plus_1 = grad_sqrt_v8_sq_plus_1_times_2 * 0.5
    del grad_sqrt_v8_sq_plus_1_times_2
    grad_v8_sq = grad_sqrt_v8_sq_plus_1 / (2 * sqrt_v8_sq_plus_1)
    del grad_sqrt_v8_sq_plus_1, sqrt_v8_sq_plus_1
    grad_v8 = add_into(grad_v8, grad_v8_sq * 2 * v8)
    del grad_v8_sq
    # for _ in range(1):
    grad_v3 = zeros_like_grad(v3)
    for _ in reversed(range(1)):
        v8_minus_v12_times_c = v8_minus_v12_times_c_stack.pop()
        v12_times_c_plus_v3 = v12_times_c_plus_v3_stack.pop()
        v12_times_c = v12_times_c_stack.pop()
        # v16 += (v8) - ((v12) * 0.5 + (v3))
        grad_v16_plus_v8_minus_v12 = grad_v16
        v16 = v16_stack.pop()
        grad_v16 = unbroadcast(grad_v16_plus_v8_minus_v12, v16)
        grad_v8_minus_v12_times_c = unbroadcast(grad_v16_plus_v8_minus_v12, v8_minus_v12_times_c)
        grad_v8 = add_into(grad_v8, unbroadcast(grad_v8_minus_v12_times_c, v8))
        grad_v12_times_c_plus_v3 = unbroadcast(-grad_v8_minus_v12_times_c, v12_times_c_plus_v3)
        grad_v12_times_c = unbroadcast(grad_v12_times_c_plus_v3, v12_times_c)
        grad_v3 = add_into(grad_v3, unbroadcast(grad_v12_times_c_plus_v3, v3))
        grad_v12 = add_into(grad_v12, grad_v12_times_c * 0.5)
    del v16
    # v16 = y * 1.0
    grad_y = add_into(grad_y, grad_v16)
    del grad_v16
    # for _ in range(2):
    for _ in reversed(range(2)):
        cumsum_x = cumsum_x_stack.pop()
        # v14 += np.cumsum(x, axis=-1)
        grad_v14_plus_cumsum_x = grad_v14
        v14 = v14_stack.pop()
        grad_v14 = unbroadcast(grad_v14_plus_cumsum_x, v14)
        grad_cumsum_x = unbroadcast(grad_v14_plus_cumsum_x, cumsum_x)
        grad_x = (grad_x
                  + np.reshape(np.flip(np.cumsum(np.flip(grad_cumsum_x, axis=-1), axis=-1),
                                       axis=-1), np.shape(x)))
    del v14
    # v14 = y * 1.0
    grad_y = add_into(grad_y, grad_v14)
    del grad_v14
    # while np.sum(v13 * v13) < 20.0 and n < 3:
    for _ in range(n_iterations_2):
        where_v3_gt_0 = where_v3_gt_0_stack.pop()
        v13_times_c = v13_times_c_stack.pop()
        # v13 = v13 * 1.3 + np.where((v3) > 0, v9, 0.5)
        grad_v13_times_c = unbroadcast(grad_v13, v13_times_c)
        grad_where_v3_gt_0 = unbroadcast(grad_v13, where_v3_gt_0)
        grad_v9 = grad_v9 + unbroadcast(np.where(v3 > 0, grad_where_v3_gt_0, 0), v9)
        grad_v13 = grad_v13_times_c * 1.3
    del v9
    # v13 = x
    grad_x = grad_x + grad_v13
    # v12 = v3
    grad_v3 = add_into(grad_v3, grad_v12)
    del grad_v12
    # for i in range(3):
    for i in reversed(range(3)):
        # if np.sum(v11) > 0.48:
        sum_v11_gt_c = sum_v11_gt_c_stack.pop()
        if not sum_v11_gt_c:
            # v11 = x
            grad_x = add_into(grad_x, grad_v11)
            v11 = v11_stack.pop()
            grad_v11 = zeros_like_grad(v11)
    # v11 = v7 * 1.0
    grad_v7 = grad_v11
    del grad_v11
    # for row, other in zip(v0, x):
    grad_v0 = zeros_like_grad(v0)
    for i_2 in reversed(range(min(len(v0), len(x)))):
        sin_row_times_other = sin_row_times_other_stack.pop()
        sin_row = sin_row_stack.pop()
        # v10 = v10 + np.sin(row) * other
        grad_v10_plus_sin_row_times = grad_v10
        v10 = v10_stack.pop()
        grad_v10 = unbroadcast(grad_v10_plus_sin_row_times, v10)
        grad_sin_row_times_other = unbroadcast(grad_v10_plus_sin_row_times, sin_row_times_other)
        grad_sin_row = unbroadcast(grad_sin_row_times_other * other, sin_row)
        grad_other = unbroadcast(grad_sin_row_times_other * sin_row, other)
        grad_row = grad_sin_row * np.cos(row)
        # for row, other in zip(v0, x):
        grad_x[i_2] = grad_x[i_2] + grad_other
        other = other_stack_4.pop()
        grad_v0[i_2] = grad_v0[i_2] + grad_row
        row = row_stack_5.pop()
    del grad_v10, other, row, v10
    # v9 = np.clip(np.arctan2(np.hypot(1.5, v1), (helper(v6, v2)) ** 2 + 1.0), -1.0, np.abs(np.s ...
    grad_arctan2_hypot_c = unbroadcast(grad_v9
                                       * ((arctan2_hypot_c >= lower_bound(-1.0))
                                          & (arctan2_hypot_c
                                             <= upper_bound(abs_sort_cumsum_v7_plus))),
                                       arctan2_hypot_c)
    grad_abs_sort_cumsum_v7 = unbroadcast(grad_v9
                                          * (np.maximum(arctan2_hypot_c, lower_bound(-1.0))
                                             > abs_sort_cumsum_v7_plus), abs_sort_cumsum_v7_plus)
    del abs_sort_cumsum_v7_plus, arctan2_hypot_c, grad_v9
    grad_sort_cumsum_v7 = abs_vjp(grad_abs_sort_cumsum_v7, sort_cumsum_v7)
    del grad_abs_sort_cumsum_v7, sort_cumsum_v7
    grad_cumsum_v7 = untake_along_axis(grad_sort_cumsum_v7, cumsum_v7,
                                       np.argsort(cumsum_v7, axis=-1, kind='stable'), axis=-1)
    del cumsum_v7, grad_sort_cumsum_v7
    grad_v7 = (grad_v7
               + np.reshape(np.flip(np.cumsum(np.flip(grad_cumsum_v7, axis=-1), axis=-1), axis=-1),
                            np.shape(v7)))
    del grad_cumsum_v7
    grad_hypot_c = unbroadcast(grad_arctan2_hypot_c * helper_v6_sq_plus_1
                               / (hypot_c ** 2 + helper_v6_sq_plus_1 ** 2), hypot_c)
    grad_helper_v6_sq = unbroadcast(-grad_arctan2_hypot_c * hypot_c
                                    / (hypot_c ** 2 + helper_v6_sq_plus_1 ** 2),
                                    helper_v6_sq_plus_1)
    del grad_arctan2_hypot_c, helper_v6_sq_plus_1
    grad_helper_v6 = grad_helper_v6_sq * 2 * helper_v6
    del grad_helper_v6_sq, helper_v6
    grads_helper = backward_helper(grad_helper_v6, helper_v6_saved)
    del grad_helper_v6, helper_v6_saved
    grad_v6 = add_into(grad_v6, grads_helper[0])
    grad_v2 = add_into(grad_v2, grads_helper[1])
    del grads_helper
    grad_v1 = grad_v1 + grad_hypot_c * v1 / hypot_c
    del grad_hypot_c, hypot_c
    # v8 = np.tanh(np.clip(np.minimum(v4, v5), -0.9, 0.8))
    grad_clip_minimum_v4 = grad_v8 * (1 - v8 ** 2)
    del grad_v8, v8
    grad_minimum_v4 = (grad_clip_minimum_v4
                       * ((minimum_v4 >= lower_bound(-0.9)) & (minimum_v4 <= upper_bound(0.8))))
    del grad_clip_minimum_v4, minimum_v4
    grad_v4 = add_into(grad_v4,
                       unbroadcast(grad_minimum_v4 * (v4 < v5) + grad_minimum_v4 * (v4 == v5) / 2,
                                   v4))
    grad_v5 = (grad_v5
               + unbroadcast(grad_minimum_v4 * (v5 < v4) + grad_minimum_v4 * (v4 == v5) / 2, v5))
    del grad_minimum_v4, v5
    # if np.sum(v3) > 0:
    if sum_v3_gt_0_2:
        # v7 = helper(helper(x, y), v6)
        grads_helper_2 = backward_helper(grad_v7, v7_saved)
        grad_helper_x = grads_helper_2[0]
        grad_v6 = add_into(grad_v6, grads_helper_2[1])
        grads_helper_3 = backward_helper(grad_helper_x, helper_x_saved)
        grad_x = add_into(grad_x, grads_helper_3[0])
        grad_y = add_into(grad_y, grads_helper_3[1])
    else:
        # v7 = v1
        grad_v1 = add_into(grad_v1, grad_v7)
    del grad_v7
    # v6 = np.mean(helper((x) - (x), 0.7))
    grad_helper_x_minus_x = unreduce(grad_v6 / reduced_count(helper_x_minus_x, v6),
                                     helper_x_minus_x)
    grad_x_minus_x = backward_helper_2(grad_helper_x_minus_x, helper_x_minus_x_saved)[0]
    del helper_x_minus_x_saved
    grad_x = add_into(grad_x, grad_x_minus_x)
    grad_x = add_into(grad_x, -grad_x_minus_x)
    del grad_x_minus_x
    # v5 = p * 0.5 + q
    grad_p_times_c = unbroadcast(grad_v5, p_times_c)
    grad_q = unbroadcast(grad_v5, q)
    del grad_v5
    grad_p = grad_p_times_c * 0.5
    del grad_p_times_c
    # p, q = pair(helper(v2, y), 1.5)
    grad_pair_helper_v2 = [grad_p, grad_q]
    del grad_p, grad_q
    grad_helper_v2 = backward_pair_2(grad_pair_helper_v2, pair_helper_v2_saved)[0]
    del grad_pair_helper_v2, pair_helper_v2_saved
    grads_helper_4 = backward_helper(grad_helper_v2, helper_v2_saved)
    del grad_helper_v2, helper_v2_saved
    grad_v2 = add_into(grad_v2, grads_helper_4[0])
    grad_y = add_into(grad_y, grads_helper_4[1])
    del grads_helper_4
    # if np.sum(v3) > 0:
    if sum_v3_gt_0_3:
        # v4 = np.maximum(math.tanh(np.mean(v1)), np.clip(x, -1.0, np.abs(1.5) + 0.1))
        grad_tanh_mean_v1 = unbroadcast(grad_v4 * (tanh_mean_v1 > clip_x)
                                        + grad_v4 * (tanh_mean_v1 == clip_x) / 2, tanh_mean_v1)
        grad_clip_x = grad_v4 * (clip_x > tanh_mean_v1) + grad_v4 * (tanh_mean_v1 == clip_x) / 2
        grad_x = add_into(grad_x,
                          grad_clip_x
                          * ((x >= lower_bound(-1.0)) & (x <= upper_bound(abs_c_plus_c))))
        grad_mean_v1 = grad_tanh_mean_v1 * (1 - tanh_mean_v1 * tanh_mean_v1)
        grad_v1 = add_into(grad_v1, unreduce(grad_mean_v1 / reduced_count(v1, mean_v1), v1))
    else:
        # v4 = np.hypot(1.5, (v2) if np.sum(x) > 0 else (v3))
        grad_choice = grad_v4 * choice / v4
        if sum_x_gt_0:
            # v4 = np.hypot(1.5, (v2) if np.sum(x) > 0 else (v3))
            grad_v2 = add_into(grad_v2, grad_choice)
        else:
            # v4 = np.hypot(1.5, (v2) if np.sum(x) > 0 else (v3))
            grad_v3 = add_into(grad_v3, grad_choice)
    del grad_v4
    # for i in range(4):
    for i in reversed(range(4)):
        # if np.sum(v3) > 0.46:
        sum_v3_gt_c = sum_v3_gt_c_stack.pop()
        if not sum_v3_gt_c:
            neg_v1 = neg_v1_stack.pop()
            # v3 = (-(v1)) * (v3)
            grad_neg_v1_times_v3 = grad_v3
            v3 = v3_stack.pop()
            grad_neg_v1 = unbroadcast(grad_neg_v1_times_v3 * v3, neg_v1)
            grad_v3 = unbroadcast(grad_neg_v1_times_v3 * neg_v1, v3)
            grad_v1 = add_into(grad_v1, -grad_neg_v1)
    del v3
    # v3 = v1 * 1.0
    grad_v1 = add_into(grad_v1, grad_v3)
    del grad_v3
    # while np.sum(v2 * v2) < 20.0 and n < 3:
    for _ in range(n_iterations_3):
        v2_times_c = v2_times_c_stack.pop()
        # v2 = v2 * 1.3 + v0
        grad_v2_times_c = unbroadcast(grad_v2, v2_times_c)
        grad_v0 = add_into(grad_v0, unbroadcast(grad_v2, v0))
        grad_v2 = grad_v2_times_c * 1.3
    # v2 = x
    grad_x = add_into(grad_x, grad_v2)
    del grad_v2
    # if np.sum(x) > 0:
    if sum_x_gt_0_2:
        # v1 = y
        grad_y = add_into(grad_y, grad_v1)
    else:
        # v1 = np.hypot(x, x)
        grad_x = add_into(grad_x, grad_v1 * x / v1)
        grad_x = add_into(grad_x, grad_v1 * x / v1)
    del grad_v1
    # for _ in range(1):
    for _ in reversed(range(1)):
        clip_maximum_c = clip_maximum_c_stack.pop()
        abs_min_c_plus_c = abs_min_c_plus_c_stack.pop()
        maximum_c = maximum_c_stack.pop()
        # v0 += np.clip(np.maximum(1.5, v0), -1.0, np.abs(np.min(1.5, axis=0, keepdims=True)) + 0.1)
        grad_v0_plus_clip_maximum_c = grad_v0
        v0 = v0_stack.pop()
        grad_v0 = unbroadcast(grad_v0_plus_clip_maximum_c, v0)
        grad_clip_maximum_c = unbroadcast(grad_v0_plus_clip_maximum_c, clip_maximum_c)
        grad_maximum_c = unbroadcast(grad_clip_maximum_c
                                     * ((maximum_c >= lower_bound(-1.0))
                                        & (maximum_c <= upper_bound(abs_min_c_plus_c))), maximum_c)
        grad_v0 = grad_v0 + (grad_maximum_c * (v0 > 1.5) + grad_maximum_c * (1.5 == v0) / 2)
    del v0
    # v0 = y * 1.0
    grad_y = add_into(grad_y, grad_v0)
    return as_gradient(grad_x, x), as_gradient(grad_y, y)


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


def forward_pair(a, b):
    # return a * b, a - np.tanh(b)
    a_times_b = a * b
    result = a_times_b, a - np.tanh(b)
    return result, (a, b)


def backward_pair(grad_result, saved):
    a, b = saved
    # return a * b, a - np.tanh(b)
    grad_a_times_b = grad_result[0]
    grad_a_minus_tanh_b = grad_result[1]
    grad_a = unbroadcast(grad_a_minus_tanh_b, a)
    del grad_a_minus_tanh_b
    grad_a = grad_a + unbroadcast(grad_a_times_b * b, a)
    return grad_a,
