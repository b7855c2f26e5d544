def grad_f(x, y):
    # v0 = np.exp(0.3 * np.cumprod(np.tanh(np.sqrt((1.5) ** 2 + 1.0)), axis=0))
    v0 = np.exp(0.3 * np.cumprod(np.tanh(np.sqrt(1.5 ** 2 + 1.0)), axis=0))
    # v1 = np.sum(np.arctan2(np.where((1.5) > 0, v0, 0.5), (np.where((1.5) > 0, v0, 0.5)) ** 2 + ...
    v1 = np.sum(np.arctan2(np.where(1.5 > 0, v0, 0.5), np.where(1.5 > 0, v0, 0.5) ** 2 + 1.0),
                axis=0)
    # v2 = (np.sin(y)) * (1.5)
    v2 = np.sin(y) * 1.5
    parts = []
    for i in range(2):
        # parts.append((np.arctan2(v0, (v2) ** 2 + 1.0)) / (((y) / ((v1) ** 2 + 1.0)) ** 2 + 1.0 ...
        parts.append(np.arctan2(v0, v2 ** 2 + 1.0) / ((y / (v1 ** 2 + 1.0)) ** 2 + 1.0) * (i + 1.0))
    v3 = parts[0] + parts[1]
    # if np.sum(v1) > 0:
    if np.sum(v1) > 0:
        v4 = np.abs(np.maximum(1.5, v0))
    else:
        # v4 = (np.where((v3) > (v1), v1, v3)) / ((v0) ** 2 + 1.0)
        v4 = np.where(v3 > v1, v1, v3) / (v0 ** 2 + 1.0)
    # v5 = (helper(np.maximum(v4, v2), np.where((y) > 0, v3, 0.5))) if np.sum((math.tanh(np.mean ...
    if np.sum(math.tanh(np.mean(x)) * 0.5 + v0 ** 2) > 0:
        # v5 = (helper(np.maximum(v4, v2), np.where((y) > 0, v3, 0.5))) if np.sum((math.tanh(np. ...
        v5 = helper(np.maximum(v4, v2), np.where(y > 0, v3, 0.5))
    else:
        # v5 = (helper(np.maximum(v4, v2), np.where((y) > 0, v3, 0.5))) if np.sum((math.tanh(np. ...
        v5 = np.sqrt(np.tanh(x) ** 2 + 1.0)
    # parts = []
    parts_2 = []
    for i in range(2):
        # parts.append(x * (i + 1.0))
        parts_2.append(x * (i + 1.0))
    # v6 = parts[0] + parts[1]
    v6 = parts_2[0] + parts_2[1]
    v7 = np.mean(x)
    # if np.sum(v0) > 0:
    v8 = None
    sum_v0_gt_0 = np.sum(v0) > 0
    if sum_v0_gt_0:
        # v8 = np.cos(math.tanh(np.mean(x)))
        mean_x = np.mean(x)
        tanh_mean_x = math.tanh(mean_x)
        v8 = np.cos(tanh_mean_x)
    else:
        v8 = np.tanh(v7)
    # v9 = np.copy(np.min(x, axis=0, keepdims=True))
    min_x = np.min(x, axis=0, keepdims=True)
    v9 = np.copy(min_x)
    # v9[-1] -= np.tanh(v9[0])
    v9_0_view = v9[0]
    tanh_v9_0 = np.tanh(np.copy(v9_0_view))
    v9[-1] -= tanh_v9_0
    # v9[..., ::2] *= 0.5
    v9_slice_times_c = v9[..., ::2] * 0.5
    v9[..., ::2] = v9_slice_times_c
    v10 = 1.5
    v11 = v7
    # v12 = np.maximum(np.minimum((v8) * (x), np.cos(y)), 0.2)
    v8_times_x = v8 * x
    cos_y = np.cos(y)
    minimum_v8_times_x = np.minimum(v8_times_x, cos_y)
    v12 = np.maximum(minimum_v8_times_x, 0.2)
    # if np.sum(v1) > 0:
    v13 = None
    sum_v1_gt_0 = np.sum(v1) > 0
    if sum_v1_gt_0:
        # v13 = (np.max(v0, axis=-1, keepdims=True)) + ((v9) if np.sum(v6) > 0 else (v11))
        sum_v6_gt_0 = np.sum(v6) > 0
        if sum_v6_gt_0:
            # v13 = (np.max(v0, axis=-1, keepdims=True)) + ((v9) if np.sum(v6) > 0 else (v11))
            choice = v9
        else:
            # v13 = (np.max(v0, axis=-1, keepdims=True)) + ((v9) if np.sum(v6) > 0 else (v11))
            choice = v11
        v13 = np.max(v0, axis=-1, keepdims=True) + choice
    else:
        # v13 = (v11) * (v0)
        v13 = v11 * v0
    v14 = y * 1.0
    for _ in range(0):
        # v14 += v5
        v14 = v14 + v5
    v15 = x
    for _ in range(0):
        # v15 = helper(np.cumprod(np.tanh(v4), axis=0), np.where((x) > (1.5), 1.5, y))
        v15 = helper(np.cumprod(np.tanh(v4), axis=0), np.where(x > 1.5, 1.5, y))
    # v16 = (((v9) if np.sum(v7) > 0 else (v9)) + (np.minimum(v1, v1))) - (np.clip((v11) + (v13) ...
    if np.sum(v7) > 0:
        # v16 = (((v9) if np.sum(v7) > 0 else (v9)) + (np.minimum(v1, v1))) - (np.clip((v11) + ( ...
        choice_2 = v9
    else:
        # v16 = (((v9) if np.sum(v7) > 0 else (v9)) + (np.minimum(v1, v1))) - (np.clip((v11) + ( ...
        choice_2 = v9
    if np.sum(x) > 0:
        # v16 = (((v9) if np.sum(v7) > 0 else (v9)) + (np.minimum(v1, v1))) - (np.clip((v11) + ( ...
        choice_3 = v0
    else:
        # v16 = (((v9) if np.sum(v7) > 0 else (v9)) + (np.minimum(v1, v1))) - (np.clip((v11) + ( ...
        choice_3 = v7
    v16 = choice_2 + np.minimum(v1, v1) - np.clip(v11 + v13, -1.0, np.abs(choice_3) + 0.1)
    v17 = np.max(np.min(v16, axis=0, keepdims=True))
    # if np.sum(v12) > 0:
    if np.sum(v12) > 0:
        v18 = v9
    else:
        # v18 = (v17) ** 2
        v18 = v17 ** 2
    v19 = np.hypot(v17,
                   np.hypot(np.max(v2, axis=-1, keepdims=True),
                            np.prod(np.tanh(v13), axis=-1, keepdims=True)))
    # if np.sum(v11) > 0:
    if np.sum(v11) > 0:
        v20 = helper(twice(v6), np.hypot(v0, v16))
    else:
        # v20 = ((v11) * (v0)) - (np.clip(v18, -1.0, np.abs(y) + 0.1))
        v20 = v11 * v0 - np.clip(v18, -1.0, np.abs(y) + 0.1)
    v21 = x
    # for _ in range(2):
    v21_stack = []
    for _ in range(2):
        # v21 = np.clip(helper(v1, 0.7), -1.0, np.abs(1.5) + 0.1)
        v21_stack.append(v21)
        v21 = np.clip(helper(v1, 0.7), -1.0, np.abs(1.5) + 0.1)
    # if np.sum(v8) > 0:
    if np.sum(v8) > 0:
        v22 = helper(v3, np.minimum(v9, 1.5))
    else:
        v22 = np.max(np.minimum(v21, v3), axis=-1, keepdims=True)
    # if np.sum(y) > 0:
    if np.sum(y) > 0:
        v23 = np.hypot(np.clip(v13, -1.0, np.abs(v9) + 0.1), np.cumprod(np.tanh(v0), axis=0))
    else:
        # v23 = (np.cumprod(np.tanh(v10), axis=0)) * 0.5 + ((v8) + (v12))
        v23 = np.cumprod(np.tanh(v10), axis=0) * 0.5 + (v8 + v12)
    v24 = v12 * 1.0
    # for i in range(2):
    sqrt_v21_sq_plus_1_times_stack = []
    v24_times_c_stack = []
    sqrt_v21_sq_plus_1_stack = []
    for i in range(2):
        for j in range(1):
            # v24 = v24 * 0.5 + np.sqrt((v21) ** 2 + 1.0) * (i - j + 0.5)
            v24_times_c = v24 * 0.5
            v24_times_c_stack.append(shape_only(v24_times_c))
            sqrt_v21_sq_plus_1 = np.sqrt(v21 ** 2 + 1.0)
            sqrt_v21_sq_plus_1_stack.append(sqrt_v21_sq_plus_1)
            sqrt_v21_sq_plus_1_times = sqrt_v21_sq_plus_1 * (i - j + 0.5)
            sqrt_v21_sq_plus_1_times_stack.append(shape_only(sqrt_v21_sq_plus_1_times))
            v24 = v24_times_c + sqrt_v21_sq_plus_1_times
    v25 = 0.0
    # for i, row in enumerate(v10):
    for i in range(len(v10)):
        # for i, row in enumerate(v10):
        row = v10[i]
        v25 = v25 + np.sin(row) * (i + 1.0)
    # if np.sum(v15) > 0:
    if np.sum(v15) > 0:
        # v26 = math.tanh(np.mean((v2) if np.sum(x) > 0 else (v17)))
        if np.sum(x) > 0:
            # v26 = math.tanh(np.mean((v2) if np.sum(x) > 0 else (v17)))
            choice_4 = v2
        else:
            # v26 = math.tanh(np.mean((v2) if np.sum(x) > 0 else (v17)))
            choice_4 = v17
        v26 = math.tanh(np.mean(choice_4))
    else:
        # v26 = np.where(((v22) * 0.5 + (v0)) > (np.where((v24) > (v19), v19, v0)), np.clip(v8, ...
        v26 = np.where(v22 * 0.5 + v0 > np.where(v24 > v19, v19, v0),
                       np.clip(v8, -1.0, np.abs(v12) + 0.1), v0 + v17)
    v27 = v22
    # v28 = helper(b=0.3, a=(v13) * (helper(v2, x)))
    v28 = helper(b=0.3, a=v13 * helper(v2, x))
    v29 = x
    n = 0
    while np.sum(v29 * v29) < 20.0 and n < 3:
        v29 = v29 * 1.3 + np.tanh(v22)
        n = n + 1
    v30 = 0.0
    # for row, other in zip(v11, v17):
    for i_2 in range(min(len(v11), len(v17))):
        # for row, other in zip(v11, v17):
        row = v11[i_2]
        other = v17[i_2]
        v30 = v30 + np.sin(row) * other
    v31 = np.copy(helper(v2, v14))
    v31[0] = v31[-1] * 2.0
    v31[0] += np.sum(twice(1.5))
    # v32 = np.log((np.where(((v22) - (v21)) > (v20), v27, np.maximum(v16, v27))) ** 2 + 1.0)
    v32 = np.log(np.where(v22 - v21 > v20, v27, np.maximum(v16, v27)) ** 2 + 1.0)
    # v33 = np.clip(v15, -1.0, np.abs(np.log((np.maximum(v21, v9)) ** 2 + 1.0)) + 0.1)
    v33 = np.clip(v15, -1.0, np.abs(np.log(np.maximum(v21, v9) ** 2 + 1.0)) + 0.1)
    # parts = []
    parts_3 = []
    for i in range(2):
        # parts.append(np.linalg.norm(np.maximum(v19, v15)) * 0.5 * (i + 1.0))
        parts_3.append(np.linalg.norm(np.maximum(v19, v15)) * 0.5 * (i + 1.0))
    # v34 = parts[0] + parts[1]
    v34 = parts_3[0] + parts_3[1]
    # v35 = np.hypot(np.cumsum(np.clip(v16, -1.0, np.abs(v32) + 0.1), axis=-1), np.where((helper ...
    v35 = np.hypot(np.cumsum(np.clip(v16, -1.0, np.abs(v32) + 0.1), axis=-1),
                   np.where(helper(v20, v26) > 0, v18 * v22, 0.5))
    v36 = x
    # for _ in range(0):
    v36_stack = []
    for _ in range(0):
        # v36 = v8
        v36_stack.append(shape_only(v36))
        v36 = v8
    # parts = []
    parts_4 = []
    # for i in range(2):
    arctan2_maximum_v13_2_stack = []
    where_v16_gt_v28_sq_plus_stack = []
    where_v16_gt_v28_stack = []
    maximum_v13_stack = []
    for i in range(2):
        # parts.append(np.arctan2(np.maximum(v13, 0.2), (np.where((v16) > (v28), v7, v21)) ** 2 ...
        maximum_v13 = np.maximum(v13, 0.2)
        maximum_v13_stack.append(maximum_v13)
        where_v16_gt_v28 = np.where(v16 > v28, v7, v21)
        where_v16_gt_v28_stack.append(where_v16_gt_v28)
        where_v16_gt_v28_sq_plus = where_v16_gt_v28 ** 2 + 1.0
        where_v16_gt_v28_sq_plus_stack.append(where_v16_gt_v28_sq_plus)
        arctan2_maximum_v13_2 = np.arctan2(maximum_v13, where_v16_gt_v28_sq_plus)
        arctan2_maximum_v13_2_stack.append(shape_only(arctan2_maximum_v13_2))
        parts_4.append(arctan2_maximum_v13_2 * (i + 1.0))
    # v37 = parts[0] + parts[1]
    parts_4_0 = parts_4[0]
    parts_4_1 = parts_4[1]
    v37 = shape_of_elementwise(parts_4_0, parts_4_1)
    # parts = []
    parts_5 = []
    # for i in range(2):
    neg_neg_v24_stack = []
    for i in range(2):
        # parts.append(-(-(v24)) * (i + 1.0))
        neg_neg_v24 = --v24
        neg_neg_v24_stack.append(shape_only(neg_neg_v24))
        parts_5.append(neg_neg_v24 * (i + 1.0))
    # v38 = parts[0] + parts[1]
    parts_5_0 = parts_5[0]
    parts_5_1 = parts_5[1]
    v38 = shape_of_elementwise(parts_5_0, parts_5_1)
    # parts = []
    parts_6 = []
    for i in range(2):
        # parts.append(v10 * (i + 1.0))
        parts_6.append(v10 * (i + 1.0))
    # v39 = parts[0] + parts[1]
    v39 = parts_6[0] + parts_6[1]
    # return np.sum(v36 + v37 + v38 + v39)
    v36_plus_v37 = shape_of_elementwise(v36, v37)
    v36_plus_v37_plus_v38_2 = shape_of_elementwise(v36_plus_v37, v38)
    v36_plus_v37_plus_v38 = shape_of_elementwise(v36_plus_v37_plus_v38_2, v39)
    # the backward sweep reads only the shapes of these: let their elements go
    parts_4 = shape_only(parts_4)
    parts_4_0 = shape_only(parts_4_0)
    parts_4_1 = shape_only(parts_4_1)
    parts_5 = shape_only(parts_5)
    parts_5_0 = shape_only(parts_5_0)
    parts_5_1 = shape_only(parts_5_1)
    v24 = shape_only(v24)
    v36 = shape_only(v36)
    v9 = shape_only(v9)
    v9_slice_times_c = shape_only(v9_slice_times_c)
    grad_f_value = 1.0
    # return np.sum(v36 + v37 + v38 + v39)
    grad_v36_plus_v37_plus_v38 = unreduce(grad_f_value, v36_plus_v37_plus_v38)
    grad_v36_plus_v37_plus_v38_2 = unbroadcast(grad_v36_plus_v37_plus_v38, v36_plus_v37_plus_v38_2)
    grad_v36_plus_v37 = unbroadcast(grad_v36_plus_v37_plus_v38_2, v36_plus_v37)
    grad_v38 = unbroadcast(grad_v36_plus_v37_plus_v38_2, v38)
    del grad_v36_plus_v37_plus_v38_2
    grad_v36 = unbroadcast(grad_v36_plus_v37, v36)
    grad_v37 = unbroadcast(grad_v36_plus_v37, v37)
    del grad_v36_plus_v37
    # v38 = parts[0] + parts[1]
    grad_parts_5_0 = unbroadcast(grad_v38, parts_5_0)
    grad_parts_5_1 = unbroadcast(grad_v38, parts_5_1)
    del grad_v38
    grad_parts_5 = zeros_like_grad(parts_5)
    grad_parts_5[1] = grad_parts_5[1] + grad_parts_5_1
    del grad_parts_5_1
    grad_parts_5[0] = grad_parts_5[0] + grad_parts_5_0
    del grad_parts_5_0
    # for i in range(2):
    grad_v24 = zeros_like_grad(v24)
    for i in reversed(range(2)):
        neg_neg_v24 = neg_neg_v24_stack.pop()
        # parts.append(-(-(v24)) * (i + 1.0))
        grad_neg_neg_v24_times_i_plus = grad_parts_5.pop()
        grad_neg_neg_v24 = unbroadcast(grad_neg_neg_v24_times_i_plus * (i + 1.0), neg_neg_v24)
        grad_neg_v24 = -grad_neg_neg_v24
        grad_v24 = add_into(grad_v24, -grad_neg_v24)
    del grad_parts_5
    # v37 = parts[0] + parts[1]
    grad_parts_4_0 = unbroadcast(grad_v37, parts_4_0)
    grad_parts_4_1 = unbroadcast(grad_v37, parts_4_1)
    del grad_v37
    grad_parts_4 = zeros_like_grad(parts_4)
    grad_parts_4[1] = grad_parts_4[1] + grad_parts_4_1
    del grad_parts_4_1
    grad_parts_4[0] = grad_parts_4[0] + grad_parts_4_0
    del grad_parts_4_0
    # for i in range(2):
    grad_v13 = zeros_like_grad(v13)
    grad_v21 = zeros_like_grad(v21)
    grad_v7 = zeros_like_grad(v7)
    for i in reversed(range(2)):
        arctan2_maximum_v13_2 = arctan2_maximum_v13_2_stack.pop()
        where_v16_gt_v28_sq_plus = where_v16_gt_v28_sq_plus_stack.pop()
        where_v16_gt_v28 = where_v16_gt_v28_stack.pop()
        maximum_v13 = maximum_v13_stack.pop()
        # parts.append(np.arctan2(np.maximum(v13, 0.2), (np.where((v16) > (v28), v7, v21)) ** 2 ...
        grad_arctan2_maximum_v13 = grad_parts_4.pop()
        grad_arctan2_maximum_v13_2 = unbroadcast(grad_arctan2_maximum_v13 * (i + 1.0),
                                                 arctan2_maximum_v13_2)
        grad_maximum_v13 = unbroadcast(grad_arctan2_maximum_v13_2 * where_v16_gt_v28_sq_plus
                                       / (maximum_v13 ** 2 + where_v16_gt_v28_sq_plus ** 2),
                                       maximum_v13)
        grad_where_v16_gt_v28_sq = unbroadcast(-grad_arctan2_maximum_v13_2 * maximum_v13
                                               / (maximum_v13 ** 2 + where_v16_gt_v28_sq_plus ** 2),
                                               where_v16_gt_v28_sq_plus)
        grad_where_v16_gt_v28 = grad_where_v16_gt_v28_sq * 2 * where_v16_gt_v28
        grad_v7 = add_into(grad_v7, unbroadcast(np.where(v16 > v28, grad_where_v16_gt_v28, 0), v7))
        grad_v21 = add_into(grad_v21,
                            unbroadcast(np.where(v16 > v28, 0, grad_where_v16_gt_v28), v21))
        grad_v13 = add_into(grad_v13,
                            grad_maximum_v13 * (v13 > 0.2) + grad_maximum_v13 * (v13 == 0.2) / 2)
    del grad_parts_4, v13, v16, v28
    # for _ in range(0):
    grad_v8 = zeros_like_grad(v8)
    for _ in reversed(range(0)):
        # v36 = v8
        grad_v8 = add_into(grad_v8, grad_v36)
        v36 = v36_stack.pop()
        grad_v36 = zeros_like_grad(v36)
    # v36 = x
    grad_x = grad_v36
    del grad_v36
    # for i in range(2):
    for i in reversed(range(2)):
        # for j in range(1):
        for j in reversed(range(1)):
            sqrt_v21_sq_plus_1 = sqrt_v21_sq_plus_1_stack.pop()
            sqrt_v21_sq_plus_1_times = sqrt_v21_sq_plus_1_times_stack.pop()
            v24_times_c = v24_times_c_stack.pop()
            # v24 = v24 * 0.5 + np.sqrt((v21) ** 2 + 1.0) * (i - j + 0.5)
            grad_v24_times_c = unbroadcast(grad_v24, v24_times_c)
            grad_sqrt_v21_sq_plus_1_times = unbroadcast(grad_v24, sqrt_v21_sq_plus_1_times)
            grad_sqrt_v21_sq_plus_1 = unbroadcast(grad_sqrt_v21_sq_plus_1_times * (i - j + 0.5),
                                                  sqrt_v21_sq_plus_1)
            grad_v21_sq = grad_sqrt_v21_sq_plus_1 / (2 * sqrt_v21_sq_plus_1)
            grad_v21 = add_into(grad_v21, grad_v21_sq * 2 * v21)
            grad_v24 = grad_v24_times_c * 0.5
    # v24 = v12 * 1.0
    grad_v12 = grad_v24
    del grad_v24
    # for _ in range(2):
    for _ in reversed(range(2)):
        # v21 = np.clip(helper(v1, 0.7), -1.0, np.abs(1.5) + 0.1)
        v21 = v21_stack.pop()
        grad_v21 = zeros_like_grad(v21)
    del v21
    # v21 = x
    grad_x = grad_x + grad_v21
    del grad_v21
    # if np.sum(v1) > 0:
    if sum_v1_gt_0:
        # v13 = (np.max(v0, axis=-1, keepdims=True)) + ((v9) if np.sum(v6) > 0 else (v11))
        grad_choice = unbroadcast(grad_v13, choice)
        if sum_v6_gt_0:
            # v13 = (np.max(v0, axis=-1, keepdims=True)) + ((v9) if np.sum(v6) > 0 else (v11))
            grad_v9 = grad_choice
            grad_v11 = zeros_like_grad(v11)
        else:
            # v13 = (np.max(v0, axis=-1, keepdims=True)) + ((v9) if np.sum(v6) > 0 else (v11))
            grad_v11 = grad_choice
            grad_v9 = zeros_like_grad(v9)
    else:
        # v13 = (v11) * (v0)
        grad_v11 = unbroadcast(grad_v13 * v0, v11)
        grad_v9 = zeros_like_grad(v9)
    del grad_v13, v0
    # v12 = np.maximum(np.minimum((v8) * (x), np.cos(y)), 0.2)
    grad_minimum_v8_times_x = (grad_v12 * (minimum_v8_times_x > 0.2)
                               + grad_v12 * (minimum_v8_times_x == 0.2) / 2)
    del grad_v12, minimum_v8_times_x
    grad_v8_times_x = unbroadcast(grad_minimum_v8_times_x * (v8_times_x < cos_y)
                                  + grad_minimum_v8_times_x * (v8_times_x == cos_y) / 2, x)
    grad_cos_y = unbroadcast(grad_minimum_v8_times_x * (cos_y < v8_times_x)
                             + grad_minimum_v8_times_x * (v8_times_x == cos_y) / 2, y)
    del cos_y, grad_minimum_v8_times_x, v8_times_x
    grad_y = -grad_cos_y * np.sin(y)
    del grad_cos_y
    grad_v8 = add_into(grad_v8, unbroadcast(grad_v8_times_x * x, v8))
    grad_x = add_into(grad_x, grad_v8_times_x * v8)
    del grad_v8_times_x
    # v11 = v7
    grad_v7 = add_into(grad_v7, grad_v11)
    # v9[..., ::2] *= 0.5
    grad_v9_slice_times_c = unbroadcast(np.copy(grad_v9[..., ::2]), v9_slice_times_c)
    grad_v9 = private_copy(grad_v9)
    grad_v9[..., ::2] = 0.0
    grad_v9_slice = grad_v9_slice_times_c * 0.5
    del grad_v9_slice_times_c
    grad_v9[..., ::2] = grad_v9[..., ::2] + grad_v9_slice
    del grad_v9_slice
    # v9[-1] -= np.tanh(v9[0])
    grad_tanh_v9_0 = -unbroadcast(grad_v9[-1], tanh_v9_0)
    grad_v9_0 = grad_tanh_v9_0 * (1 - tanh_v9_0 ** 2)
    del grad_tanh_v9_0, tanh_v9_0
    grad_v9_0_view = unstack_like(grad_v9_0, v9_0_view)
    del grad_v9_0, v9_0_view
    grad_v9[0] = add_grads(grad_v9[0], grad_v9_0_view)
    del grad_v9_0_view
    # v9 = np.copy(np.min(x, axis=0, keepdims=True))
    grad_min_x = unstack_like(grad_v9, min_x)
    del grad_v9
    grad_x = add_into(grad_x,
                      unreduce(grad_min_x, x, axis=0, keepdims=True)
                      * tie_weights(x, min_x, axis=0, keepdims=True))
    del grad_min_x, min_x
    # if np.sum(v0) > 0:
    if sum_v0_gt_0:
        # v8 = np.cos(math.tanh(np.mean(x)))
        grad_tanh_mean_x = -grad_v8 * np.sin(tanh_mean_x)
        grad_mean_x = grad_tanh_mean_x * (1 - tanh_mean_x * tanh_mean_x)
        grad_x = add_into(grad_x, unreduce(grad_mean_x / reduced_count(x, mean_x), x))
    else:
        # v8 = np.tanh(v7)
        grad_v7 = add_into(grad_v7, grad_v8 * (1 - v8 ** 2))
    # v7 = np.mean(x)
    grad_x = add_into(grad_x, unreduce(grad_v7 / reduced_count(x, v7), x))
    return as_gradient(grad_x, x), as_gradient(grad_y, y)
