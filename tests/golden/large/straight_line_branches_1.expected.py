def grad_f(x, y):
    # h = np.sin(x) * np.cos(y)
    sin_x = np.sin(x)
    cos_y = np.cos(y)
    h = sin_x * cos_y
    # c = np.sin(y) * np.cos(x)
    sin_y = np.sin(y)
    cos_x = np.cos(x)
    c = sin_y * cos_x
    # h = np.cos(h) + np.cos(y)
    cos_h = np.cos(h)
    cos_y_2 = np.cos(y)
    h_old_30 = h
    h = cos_h + cos_y_2
    # c = np.sin(c) + np.sin(y)
    sin_c = np.sin(c)
    sin_y_2 = np.sin(y)
    c_old_44 = c
    c = sin_c + sin_y_2
    # t0 = np.cos(y) * np.tanh(h)
    cos_y_3 = np.cos(y)
    tanh_h = np.tanh(h)
    t0 = cos_y_3 * tanh_h
    # h = np.tanh(h) + np.sin(h)
    tanh_h_2 = np.tanh(h)
    sin_h = np.sin(h)
    h_old_29 = h
    h = tanh_h_2 + sin_h
    # h = np.cos(h) * np.cos(t0)
    cos_h_2 = np.cos(h)
    cos_t0 = np.cos(t0)
    h_old_28 = h
    h = cos_h_2 * cos_t0
    t1 = np.cos(c) - np.cos(c)
    # h = np.cos(h) - np.tanh(y)
    cos_h_3 = np.cos(h)
    tanh_y = np.tanh(y)
    h_old_27 = h
    h = cos_h_3 - tanh_y
    # if np.sum(t1) > np.sum(x):
    sum_t1_gt_sum_x = np.sum(t1) > np.sum(x)
    if sum_t1_gt_sum_x:
        # h = np.sin(h) * np.tanh(x)
        sin_h_2 = np.sin(h)
        tanh_x = np.tanh(x)
        h_old_25 = h
        h = sin_h_2 * tanh_x
    else:
        # h = np.tanh(h) * np.tanh(y)
        tanh_h_3 = np.tanh(h)
        tanh_y_2 = np.tanh(y)
        h_old_26 = h
        h = tanh_h_3 * tanh_y_2
    # t2 = np.cos(c) - np.tanh(y)
    cos_c = np.cos(c)
    tanh_y_3 = np.tanh(y)
    t2 = cos_c - tanh_y_3
    # h = np.cos(h) + np.cos(y)
    cos_h_4 = np.cos(h)
    cos_y_4 = np.cos(y)
    h_old_24 = h
    h = cos_h_4 + cos_y_4
    # t3 = np.tanh(t2) * np.sin(x)
    tanh_t2 = np.tanh(t2)
    sin_x_2 = np.sin(x)
    t3 = tanh_t2 * sin_x_2
    # h = np.sin(h) * np.cos(x)
    sin_h_3 = np.sin(h)
    cos_x_2 = np.cos(x)
    h_old_23 = h
    h = sin_h_3 * cos_x_2
    # t4 = np.cos(t3) * np.tanh(y)
    cos_t3 = np.cos(t3)
    tanh_y_4 = np.tanh(y)
    t4 = cos_t3 * tanh_y_4
    # h = np.sin(h) + np.tanh(t4)
    sin_h_4 = np.sin(h)
    tanh_t4 = np.tanh(t4)
    h_old_22 = h
    h = sin_h_4 + tanh_t4
    # if np.sum(y) > np.sum(x):
    sum_y_gt_sum_x_3 = np.sum(y) > np.sum(x)
    if sum_y_gt_sum_x_3:
        # h = np.tanh(h) - np.cos(y)
        tanh_h_4 = np.tanh(h)
        cos_y_5 = np.cos(y)
        h_old_20 = h
        h = tanh_h_4 - cos_y_5
    else:
        # h = np.tanh(h) * np.cos(h)
        tanh_h_5 = np.tanh(h)
        cos_h_5 = np.cos(h)
        h_old_21 = h
        h = tanh_h_5 * cos_h_5
    # t5 = np.tanh(c) * np.cos(c)
    tanh_c = np.tanh(c)
    cos_c_2 = np.cos(c)
    t5 = tanh_c * cos_c_2
    # t6 = np.cos(t5) * np.tanh(c)
    cos_t5 = np.cos(t5)
    tanh_c_2 = np.tanh(c)
    t6 = cos_t5 * tanh_c_2
    # c = np.cos(c) - np.tanh(t6)
    cos_c_3 = np.cos(c)
    tanh_t6 = np.tanh(t6)
    c_old_43 = c
    c = cos_c_3 - tanh_t6
    t7 = np.cos(x) * np.sin(h)
    t8 = np.sin(t7) + np.sin(x)
    t9 = np.sin(h) - np.cos(t8)
    # if np.sum(t9) > np.sum(c):
    sum_t9_gt_sum_c = np.sum(t9) > np.sum(c)
    if sum_t9_gt_sum_c:
        # h = np.cos(h) - np.sin(h)
        cos_h_6 = np.cos(h)
        sin_h_5 = np.sin(h)
        h_old_18 = h
        h = cos_h_6 - sin_h_5
    else:
        # h = np.sin(h) - np.tanh(c)
        sin_h_6 = np.sin(h)
        tanh_c_3 = np.tanh(c)
        h_old_19 = h
        h = sin_h_6 - tanh_c_3
    # c = np.cos(c) * np.cos(x)
    cos_c_4 = np.cos(c)
    cos_x_3 = np.cos(x)
    c_old_42 = c
    c = cos_c_4 * cos_x_3
    # h = np.cos(h) - np.cos(x)
    cos_h_7 = np.cos(h)
    cos_x_4 = np.cos(x)
    h_old_17 = h
    h = cos_h_7 - cos_x_4
    # t10 = np.sin(x) - np.tanh(c)
    sin_x_3 = np.sin(x)
    tanh_c_4 = np.tanh(c)
    t10 = sin_x_3 - tanh_c_4
    # h = np.sin(h) + np.sin(t10)
    sin_h_7 = np.sin(h)
    sin_t10 = np.sin(t10)
    h_old_16 = h
    h = sin_h_7 + sin_t10
    t11 = np.cos(c) * np.tanh(y)
    # t12 = np.sin(y) * np.tanh(y)
    sin_y_3 = np.sin(y)
    tanh_y_5 = np.tanh(y)
    t12 = sin_y_3 * tanh_y_5
    # if np.sum(y) > np.sum(t11):
    sum_y_gt_sum_t11 = np.sum(y) > np.sum(t11)
    if sum_y_gt_sum_t11:
        # c = np.cos(c) + np.cos(h)
        cos_c_5 = np.cos(c)
        cos_h_8 = np.cos(h)
        c_old_40 = c
        c = cos_c_5 + cos_h_8
    else:
        # c = np.sin(c) + np.cos(t12)
        sin_c_2 = np.sin(c)
        cos_t12 = np.cos(t12)
        c_old_41 = c
        c = sin_c_2 + cos_t12
    # t13 = np.tanh(y) - np.sin(c)
    tanh_y_6 = np.tanh(y)
    sin_c_3 = np.sin(c)
    t13 = tanh_y_6 - sin_c_3
    # t14 = np.tanh(c) - np.tanh(t13)
    tanh_c_5 = np.tanh(c)
    tanh_t13 = np.tanh(t13)
    t14 = tanh_c_5 - tanh_t13
    # t15 = np.sin(t14) - np.sin(h)
    sin_t14 = np.sin(t14)
    sin_h_8 = np.sin(h)
    t15 = sin_t14 - sin_h_8
    # t16 = np.cos(c) + np.cos(y)
    cos_c_6 = np.cos(c)
    t16 = cos_c_6 + np.cos(y)
    # t17 = np.tanh(t15) - np.sin(h)
    tanh_t15 = np.tanh(t15)
    sin_h_9 = np.sin(h)
    t17 = tanh_t15 - sin_h_9
    # c = np.tanh(c) + np.sin(t16)
    tanh_c_6 = np.tanh(c)
    sin_t16 = np.sin(t16)
    c_old_39 = c
    c = tanh_c_6 + sin_t16
    # if np.sum(y) > np.sum(x):
    sum_y_gt_sum_x_2 = np.sum(y) > np.sum(x)
    if sum_y_gt_sum_x_2:
        # c = np.tanh(c) * np.tanh(t17)
        tanh_c_7 = np.tanh(c)
        tanh_t17 = np.tanh(t17)
        c_old_37 = c
        c = tanh_c_7 * tanh_t17
    else:
        # c = np.sin(c) + np.sin(h)
        sin_c_4 = np.sin(c)
        sin_h_10 = np.sin(h)
        c_old_38 = c
        c = sin_c_4 + sin_h_10
    # h = np.tanh(h) + np.cos(x)
    tanh_h_6 = np.tanh(h)
    cos_x_5 = np.cos(x)
    h_old_15 = h
    h = tanh_h_6 + cos_x_5
    # t18 = np.cos(x) - np.sin(x)
    cos_x_6 = np.cos(x)
    t18 = cos_x_6 - np.sin(x)
    # c = np.sin(c) * np.sin(t18)
    sin_c_5 = np.sin(c)
    sin_t18 = np.sin(t18)
    c_old_36 = c
    c = sin_c_5 * sin_t18
    # c = np.sin(c) - np.sin(c)
    sin_c_6 = np.sin(c)
    sin_c_7 = np.sin(c)
    c_old_35 = c
    c = sin_c_6 - sin_c_7
    # c = np.sin(c) * np.tanh(c)
    sin_c_8 = np.sin(c)
    tanh_c_8 = np.tanh(c)
    c_old_34 = c
    c = sin_c_8 * tanh_c_8
    # c = np.cos(c) - np.cos(h)
    cos_c_7 = np.cos(c)
    cos_h_9 = np.cos(h)
    c_old_33 = c
    c = cos_c_7 - cos_h_9
    # if np.sum(h) > np.sum(h):
    sum_h_gt_sum_h = np.sum(h) > np.sum(h)
    if sum_h_gt_sum_h:
        # c = np.cos(c) + np.sin(h)
        cos_c_8 = np.cos(c)
        sin_h_11 = np.sin(h)
        c_old_31 = c
        c = cos_c_8 + sin_h_11
    else:
        # c = np.cos(c) + np.sin(h)
        cos_c_9 = np.cos(c)
        sin_h_12 = np.sin(h)
        c_old_32 = c
        c = cos_c_9 + sin_h_12
    # c = np.sin(c) + np.sin(y)
    sin_c_9 = np.sin(c)
    sin_y_4 = np.sin(y)
    c_old_30 = c
    c = sin_c_9 + sin_y_4
    # t19 = np.tanh(c) + np.cos(y)
    tanh_c_9 = np.tanh(c)
    t19 = tanh_c_9 + np.cos(y)
    # t20 = np.cos(t19) * np.tanh(x)
    cos_t19 = np.cos(t19)
    tanh_x_2 = np.tanh(x)
    t20 = cos_t19 * tanh_x_2
    # h = np.sin(h) * np.sin(t20)
    sin_h_13 = np.sin(h)
    sin_t20 = np.sin(t20)
    h_old_14 = h
    h = sin_h_13 * sin_t20
    # c = np.tanh(c) * np.cos(x)
    tanh_c_10 = np.tanh(c)
    cos_x_7 = np.cos(x)
    c_old_29 = c
    c = tanh_c_10 * cos_x_7
    # c = np.sin(c) + np.tanh(x)
    sin_c_10 = np.sin(c)
    tanh_x_3 = np.tanh(x)
    c_old_28 = c
    c = sin_c_10 + tanh_x_3
    # if np.sum(h) > np.sum(x):
    sum_h_gt_sum_x = np.sum(h) > np.sum(x)
    if sum_h_gt_sum_x:
        # c = np.sin(c) * np.tanh(y)
        sin_c_11 = np.sin(c)
        tanh_y_7 = np.tanh(y)
        c_old_26 = c
        c = sin_c_11 * tanh_y_7
    else:
        # c = np.cos(c) - np.tanh(c)
        cos_c_10 = np.cos(c)
        tanh_c_11 = np.tanh(c)
        c_old_27 = c
        c = cos_c_10 - tanh_c_11
    # h = np.sin(h) - np.cos(h)
    sin_h_14 = np.sin(h)
    cos_h_10 = np.cos(h)
    h_old_13 = h
    h = sin_h_14 - cos_h_10
    # c = np.sin(c) * np.sin(x)
    sin_c_12 = np.sin(c)
    sin_x_5 = np.sin(x)
    c_old_25 = c
    c = sin_c_12 * sin_x_5
    # c = np.sin(c) - np.cos(c)
    sin_c_13 = np.sin(c)
    cos_c_11 = np.cos(c)
    c_old_24 = c
    c = sin_c_13 - cos_c_11
    t21 = np.sin(x) - np.tanh(h)
    t22 = np.sin(h) + np.sin(t21)
    # c = np.tanh(c) + np.tanh(h)
    tanh_c_12 = np.tanh(c)
    tanh_h_7 = np.tanh(h)
    c_old_23 = c
    c = tanh_c_12 + tanh_h_7
    # if np.sum(t22) > np.sum(x):
    sum_t22_gt_sum_x = np.sum(t22) > np.sum(x)
    if sum_t22_gt_sum_x:
        # h = np.cos(h) - np.sin(c)
        cos_h_11 = np.cos(h)
        sin_c_14 = np.sin(c)
        h_old_11 = h
        h = cos_h_11 - sin_c_14
    else:
        # h = np.tanh(h) - np.tanh(h)
        tanh_h_8 = np.tanh(h)
        tanh_h_9 = np.tanh(h)
        h_old_12 = h
        h = tanh_h_8 - tanh_h_9
    # t23 = np.sin(c) + np.cos(c)
    sin_c_15 = np.sin(c)
    cos_c_12 = np.cos(c)
    t23 = sin_c_15 + cos_c_12
    # c = np.sin(c) + np.tanh(t23)
    sin_c_16 = np.sin(c)
    tanh_t23 = np.tanh(t23)
    c_old_22 = c
    c = sin_c_16 + tanh_t23
    # c = np.tanh(c) * np.sin(c)
    tanh_c_13 = np.tanh(c)
    sin_c_17 = np.sin(c)
    c_old_21 = c
    c = tanh_c_13 * sin_c_17
    # h = np.sin(h) * np.cos(c)
    sin_h_15 = np.sin(h)
    cos_c_13 = np.cos(c)
    h_old_10 = h
    h = sin_h_15 * cos_c_13
    t24 = np.cos(y) * np.tanh(x)
    # c = np.sin(c) - np.cos(c)
    sin_c_18 = np.sin(c)
    cos_c_14 = np.cos(c)
    c_old_20 = c
    c = sin_c_18 - cos_c_14
    # if np.sum(t24) > np.sum(y):
    sum_t24_gt_sum_y = np.sum(t24) > np.sum(y)
    if sum_t24_gt_sum_y:
        # c = np.tanh(c) + np.tanh(h)
        tanh_c_14 = np.tanh(c)
        tanh_h_10 = np.tanh(h)
        c_old_18 = c
        c = tanh_c_14 + tanh_h_10
    else:
        # c = np.cos(c) * np.tanh(c)
        cos_c_15 = np.cos(c)
        tanh_c_15 = np.tanh(c)
        c_old_19 = c
        c = cos_c_15 * tanh_c_15
    # c = np.cos(c) - np.sin(y)
    cos_c_16 = np.cos(c)
    sin_y_5 = np.sin(y)
    c_old_17 = c
    c = cos_c_16 - sin_y_5
    # t25 = np.cos(c) + np.tanh(c)
    cos_c_17 = np.cos(c)
    tanh_c_16 = np.tanh(c)
    t25 = cos_c_17 + tanh_c_16
    # c = np.tanh(c) * np.cos(c)
    tanh_c_17 = np.tanh(c)
    cos_c_18 = np.cos(c)
    c_old_16 = c
    c = tanh_c_17 * cos_c_18
    # c = np.sin(c) * np.tanh(t25)
    sin_c_19 = np.sin(c)
    tanh_t25 = np.tanh(t25)
    c_old_15 = c
    c = sin_c_19 * tanh_t25
    t26 = np.tanh(x) + np.sin(h)
    # t27 = np.sin(x) * np.cos(c)
    sin_x_6 = np.sin(x)
    cos_c_19 = np.cos(c)
    t27 = sin_x_6 * cos_c_19
    # if np.sum(x) > np.sum(t26):
    sum_x_gt_sum_t26 = np.sum(x) > np.sum(t26)
    if sum_x_gt_sum_t26:
        # c = np.tanh(c) * np.sin(t27)
        tanh_c_18 = np.tanh(c)
        sin_t27 = np.sin(t27)
        c_old_13 = c
        c = tanh_c_18 * sin_t27
    else:
        # c = np.sin(c) * np.sin(y)
        sin_c_20 = np.sin(c)
        sin_y_6 = np.sin(y)
        c_old_14 = c
        c = sin_c_20 * sin_y_6
    # c = np.sin(c) * np.cos(h)
    sin_c_21 = np.sin(c)
    cos_h_12 = np.cos(h)
    c_old_12 = c
    c = sin_c_21 * cos_h_12
    # t28 = np.cos(x) * np.tanh(c)
    cos_x_8 = np.cos(x)
    tanh_c_19 = np.tanh(c)
    t28 = cos_x_8 * tanh_c_19
    # t29 = np.sin(t28) - np.cos(h)
    sin_t28 = np.sin(t28)
    cos_h_13 = np.cos(h)
    t29 = sin_t28 - cos_h_13
    # t30 = np.sin(t29) * np.cos(h)
    sin_t29 = np.sin(t29)
    cos_h_14 = np.cos(h)
    t30 = sin_t29 * cos_h_14
    # t31 = np.cos(t30) - np.sin(y)
    cos_t30 = np.cos(t30)
    t31 = cos_t30 - np.sin(y)
    # t32 = np.tanh(t31) - np.sin(c)
    tanh_t31 = np.tanh(t31)
    sin_c_22 = np.sin(c)
    t32 = tanh_t31 - sin_c_22
    # if np.sum(y) > np.sum(x):
    sum_y_gt_sum_x = np.sum(y) > np.sum(x)
    if sum_y_gt_sum_x:
        # c = np.cos(c) + np.tanh(t32)
        cos_c_20 = np.cos(c)
        tanh_t32 = np.tanh(t32)
        c_old_10 = c
        c = cos_c_20 + tanh_t32
    else:
        # c = np.sin(c) + np.tanh(y)
        sin_c_23 = np.sin(c)
        tanh_y_8 = np.tanh(y)
        c_old_11 = c
        c = sin_c_23 + tanh_y_8
    # h = np.cos(h) + np.cos(c)
    cos_h_15 = np.cos(h)
    cos_c_21 = np.cos(c)
    h_old_9 = h
    h = cos_h_15 + cos_c_21
    # h = np.cos(h) - np.tanh(x)
    cos_h_16 = np.cos(h)
    tanh_x_4 = np.tanh(x)
    h_old_8 = h
    h = cos_h_16 - tanh_x_4
    # h = np.tanh(h) - np.cos(y)
    tanh_h_11 = np.tanh(h)
    cos_y_8 = np.cos(y)
    h_old_7 = h
    h = tanh_h_11 - cos_y_8
    t33 = np.tanh(c) - np.cos(c)
    t34 = np.sin(h) * np.tanh(x)
    t35 = np.sin(c) * np.cos(t33)
    # if np.sum(t34) > np.sum(t35):
    sum_t34_gt_sum_t35 = np.sum(t34) > np.sum(t35)
    if sum_t34_gt_sum_t35:
        # c = np.tanh(c) - np.sin(h)
        tanh_c_20 = np.tanh(c)
        sin_h_16 = np.sin(h)
        c_old_8 = c
        c = tanh_c_20 - sin_h_16
    else:
        # c = np.cos(c) * np.cos(y)
        cos_c_22 = np.cos(c)
        cos_y_9 = np.cos(y)
        c_old_9 = c
        c = cos_c_22 * cos_y_9
    # c = np.cos(c) * np.sin(y)
    cos_c_23 = np.cos(c)
    sin_y_8 = np.sin(y)
    c_old_7 = c
    c = cos_c_23 * sin_y_8
    # t36 = np.cos(y) + np.cos(h)
    cos_y_10 = np.cos(y)
    cos_h_17 = np.cos(h)
    t36 = cos_y_10 + cos_h_17
    # t37 = np.cos(c) * np.tanh(y)
    cos_c_24 = np.cos(c)
    tanh_y_9 = np.tanh(y)
    t37 = cos_c_24 * tanh_y_9
    # t38 = np.cos(c) * np.cos(c)
    cos_c_25 = np.cos(c)
    cos_c_26 = np.cos(c)
    t38 = cos_c_25 * cos_c_26
    # t39 = np.cos(y) - np.cos(h)
    cos_y_11 = np.cos(y)
    cos_h_18 = np.cos(h)
    t39 = cos_y_11 - cos_h_18
    # t40 = np.tanh(t36) - np.tanh(y)
    tanh_t36 = np.tanh(t36)
    tanh_y_10 = np.tanh(y)
    t40 = tanh_t36 - tanh_y_10
    # if np.sum(y) > np.sum(c):
    sum_y_gt_sum_c = np.sum(y) > np.sum(c)
    if sum_y_gt_sum_c:
        # h = np.sin(h) * np.cos(t37)
        sin_h_17 = np.sin(h)
        cos_t37 = np.cos(t37)
        h_old_5 = h
        h = sin_h_17 * cos_t37
    else:
        # h = np.tanh(h) - np.sin(x)
        tanh_h_12 = np.tanh(h)
        sin_x_7 = np.sin(x)
        h_old_6 = h
        h = tanh_h_12 - sin_x_7
    # c = np.cos(c) + np.sin(t38)
    cos_c_27 = np.cos(c)
    sin_t38 = np.sin(t38)
    c_old_6 = c
    c = cos_c_27 + sin_t38
    # h = np.tanh(h) * np.cos(t39)
    tanh_h_13 = np.tanh(h)
    cos_t39 = np.cos(t39)
    h_old_4 = h
    h = tanh_h_13 * cos_t39
    # c = np.sin(c) + np.sin(t40)
    sin_c_24 = np.sin(c)
    sin_t40 = np.sin(t40)
    c_old_5 = c
    c = sin_c_24 + sin_t40
    # t41 = np.tanh(y) * np.tanh(x)
    tanh_y_11 = np.tanh(y)
    tanh_x_5 = np.tanh(x)
    t41 = tanh_y_11 * tanh_x_5
    # h = np.sin(h) - np.sin(t41)
    sin_h_18 = np.sin(h)
    sin_t41 = np.sin(t41)
    h_old_3 = h
    h = sin_h_18 - sin_t41
    t42 = np.cos(x) * np.sin(h)
    # if np.sum(x) > np.sum(t42):
    sum_x_gt_sum_t42 = np.sum(x) > np.sum(t42)
    if sum_x_gt_sum_t42:
        # c = np.tanh(c) + np.tanh(y)
        tanh_c_21 = np.tanh(c)
        tanh_y_12 = np.tanh(y)
        c_old_3 = c
        c = tanh_c_21 + tanh_y_12
    else:
        # c = np.cos(c) + np.cos(y)
        cos_c_28 = np.cos(c)
        cos_y_12 = np.cos(y)
        c_old_4 = c
        c = cos_c_28 + cos_y_12
    # t43 = np.tanh(x) + np.tanh(x)
    tanh_x_6 = np.tanh(x)
    tanh_x_7 = np.tanh(x)
    t43 = tanh_x_6 + tanh_x_7
    # t44 = np.tanh(h) - np.cos(t43)
    tanh_h_14 = np.tanh(h)
    t44 = tanh_h_14 - np.cos(t43)
    # c = np.sin(c) - np.tanh(t44)
    sin_c_25 = np.sin(c)
    tanh_t44 = np.tanh(t44)
    c_old_2 = c
    c = sin_c_25 - tanh_t44
    # h = np.tanh(h) + np.tanh(y)
    tanh_h_15 = np.tanh(h)
    tanh_y_13 = np.tanh(y)
    h_old_2 = h
    h = tanh_h_15 + tanh_y_13
    # c = np.tanh(c) + np.cos(x)
    tanh_c_22 = np.tanh(c)
    cos_x_9 = np.cos(x)
    c_old = c
    c = tanh_c_22 + cos_x_9
    # h = np.tanh(h) + np.sin(c)
    tanh_h_16 = np.tanh(h)
    sin_c_26 = np.sin(c)
    h_old = h
    h = tanh_h_16 + sin_c_26
    # return np.sum(h * c)
    h_times_c = shape_of_elementwise(h, c)
    # the backward sweep reads only the shapes of these: let their elements go
    cos_c = shape_only(cos_c)
    cos_c_11 = shape_only(cos_c_11)
    cos_c_12 = shape_only(cos_c_12)
    cos_c_14 = shape_only(cos_c_14)
    cos_c_16 = shape_only(cos_c_16)
    cos_c_17 = shape_only(cos_c_17)
    cos_c_21 = shape_only(cos_c_21)
    cos_c_27 = shape_only(cos_c_27)
    cos_c_3 = shape_only(cos_c_3)
    cos_c_6 = shape_only(cos_c_6)
    cos_c_7 = shape_only(cos_c_7)
    cos_h = shape_only(cos_h)
    cos_h_10 = shape_only(cos_h_10)
    cos_h_13 = shape_only(cos_h_13)
    cos_h_15 = shape_only(cos_h_15)
    cos_h_16 = shape_only(cos_h_16)
    cos_h_17 = shape_only(cos_h_17)
    cos_h_18 = shape_only(cos_h_18)
    cos_h_3 = shape_only(cos_h_3)
    cos_h_4 = shape_only(cos_h_4)
    cos_h_7 = shape_only(cos_h_7)
    cos_h_9 = shape_only(cos_h_9)
    cos_t30 = shape_only(cos_t30)
    sin_c = shape_only(sin_c)
    sin_c_10 = shape_only(sin_c_10)
    sin_c_13 = shape_only(sin_c_13)
    sin_c_15 = shape_only(sin_c_15)
    sin_c_16 = shape_only(sin_c_16)
    sin_c_18 = shape_only(sin_c_18)
    sin_c_22 = shape_only(sin_c_22)
    sin_c_24 = shape_only(sin_c_24)
    sin_c_25 = shape_only(sin_c_25)
    sin_c_26 = shape_only(sin_c_26)
    sin_c_3 = shape_only(sin_c_3)
    sin_c_6 = shape_only(sin_c_6)
    sin_c_7 = shape_only(sin_c_7)
    sin_c_9 = shape_only(sin_c_9)
    sin_h = shape_only(sin_h)
    sin_h_14 = shape_only(sin_h_14)
    sin_h_18 = shape_only(sin_h_18)
    sin_h_4 = shape_only(sin_h_4)
    sin_h_7 = shape_only(sin_h_7)
    sin_h_8 = shape_only(sin_h_8)
    sin_h_9 = shape_only(sin_h_9)
    sin_t10 = shape_only(sin_t10)
    sin_t14 = shape_only(sin_t14)
    sin_t16 = shape_only(sin_t16)
    sin_t28 = shape_only(sin_t28)
    sin_t38 = shape_only(sin_t38)
    sin_t40 = shape_only(sin_t40)
    sin_t41 = shape_only(sin_t41)
    t17 = shape_only(t17)
    t32 = shape_only(t32)
    grad_f_value = 1.0
    # return np.sum(h * c)
    grad_h_times_c = unreduce(grad_f_value, h_times_c)
    grad_h = unbroadcast(grad_h_times_c * c, h)
    grad_c = unbroadcast(grad_h_times_c * h, c)
    # h = np.tanh(h) + np.sin(c)
    h = h_old
    del h_old
    grad_sin_c_26 = unbroadcast(grad_h, sin_c_26)
    grad_c = add_into(grad_c, grad_sin_c_26 * np.cos(c))
    del grad_sin_c_26
    grad_tanh_h_16 = unbroadcast(grad_h, tanh_h_16)
    grad_h = grad_tanh_h_16 * (1 - tanh_h_16 ** 2)
    del grad_tanh_h_16, tanh_h_16
    # c = np.tanh(c) + np.cos(x)
    c = c_old
    del c_old
    grad_cos_x_9 = unbroadcast(grad_c, x)
    grad_x = -grad_cos_x_9 * np.sin(x)
    del grad_cos_x_9
    grad_tanh_c_22 = unbroadcast(grad_c, tanh_c_22)
    grad_c = grad_tanh_c_22 * (1 - tanh_c_22 ** 2)
    del grad_tanh_c_22, tanh_c_22
    # h = np.tanh(h) + np.tanh(y)
    h = h_old_2
    del h_old_2
    grad_tanh_y_13 = unbroadcast(grad_h, y)
    grad_y = grad_tanh_y_13 * (1 - tanh_y_13 ** 2)
    del grad_tanh_y_13, tanh_y_13
    grad_tanh_h_15 = unbroadcast(grad_h, tanh_h_15)
    grad_h = grad_tanh_h_15 * (1 - tanh_h_15 ** 2)
    del grad_tanh_h_15, tanh_h_15
    # c = np.sin(c) - np.tanh(t44)
    c = c_old_2
    del c_old_2
    grad_tanh_t44 = unbroadcast(-grad_c, tanh_t44)
    grad_t44 = grad_tanh_t44 * (1 - tanh_t44 ** 2)
    del grad_tanh_t44, tanh_t44
    grad_sin_c_25 = unbroadcast(grad_c, sin_c_25)
    grad_c = grad_sin_c_25 * np.cos(c)
    del grad_sin_c_25
    # t44 = np.tanh(h) - np.cos(t43)
    grad_tanh_h_14 = unbroadcast(grad_t44, tanh_h_14)
    grad_cos_t43 = unbroadcast(-grad_t44, x)
    del grad_t44
    grad_t43 = -grad_cos_t43 * np.sin(t43)
    del grad_cos_t43, t43
    grad_h = add_into(grad_h, grad_tanh_h_14 * (1 - tanh_h_14 ** 2))
    del grad_tanh_h_14, tanh_h_14
    # t43 = np.tanh(x) + np.tanh(x)
    grad_x = add_into(grad_x, grad_t43 * (1 - tanh_x_7 ** 2))
    del tanh_x_7
    grad_x = add_into(grad_x, grad_t43 * (1 - tanh_x_6 ** 2))
    del grad_t43, tanh_x_6
    # if np.sum(x) > np.sum(t42):
    if sum_x_gt_sum_t42:
        # c = np.tanh(c) + np.tanh(y)
        c = c_old_3
        grad_tanh_y_12 = unbroadcast(grad_c, y)
        grad_y = add_into(grad_y, grad_tanh_y_12 * (1 - tanh_y_12 ** 2))
        grad_tanh_c_21 = unbroadcast(grad_c, tanh_c_21)
        grad_c = grad_tanh_c_21 * (1 - tanh_c_21 ** 2)
    else:
        # c = np.cos(c) + np.cos(y)
        grad_cos_c_28 = unbroadcast(grad_c, cos_c_28)
        c = c_old_4
        grad_cos_y_12 = unbroadcast(grad_c, y)
        grad_y = add_into(grad_y, -grad_cos_y_12 * np.sin(y))
        grad_c = -grad_cos_c_28 * np.sin(c)
    # h = np.sin(h) - np.sin(t41)
    h = h_old_3
    del h_old_3
    grad_sin_t41 = unbroadcast(-grad_h, sin_t41)
    grad_t41 = grad_sin_t41 * np.cos(t41)
    del grad_sin_t41, t41
    grad_sin_h_18 = unbroadcast(grad_h, sin_h_18)
    grad_h = grad_sin_h_18 * np.cos(h)
    del grad_sin_h_18
    # t41 = np.tanh(y) * np.tanh(x)
    grad_tanh_y_11 = unbroadcast(grad_t41 * tanh_x_5, y)
    grad_tanh_x_5 = unbroadcast(grad_t41 * tanh_y_11, x)
    del grad_t41
    grad_x = add_into(grad_x, grad_tanh_x_5 * (1 - tanh_x_5 ** 2))
    del grad_tanh_x_5, tanh_x_5
    grad_y = add_into(grad_y, grad_tanh_y_11 * (1 - tanh_y_11 ** 2))
    del grad_tanh_y_11, tanh_y_11
    # c = np.sin(c) + np.sin(t40)
    c = c_old_5
    del c_old_5
    grad_sin_t40 = unbroadcast(grad_c, sin_t40)
    grad_t40 = grad_sin_t40 * np.cos(t40)
    del grad_sin_t40, t40
    grad_sin_c_24 = unbroadcast(grad_c, sin_c_24)
    grad_c = grad_sin_c_24 * np.cos(c)
    del grad_sin_c_24
    # h = np.tanh(h) * np.cos(t39)
    grad_tanh_h_13 = unbroadcast(grad_h * cos_t39, tanh_h_13)
    grad_cos_t39 = unbroadcast(grad_h * tanh_h_13, cos_t39)
    del cos_t39
    h = h_old_4
    del h_old_4
    grad_t39 = -grad_cos_t39 * np.sin(t39)
    del grad_cos_t39, t39
    grad_h = grad_tanh_h_13 * (1 - tanh_h_13 ** 2)
    del grad_tanh_h_13, tanh_h_13
    # c = np.cos(c) + np.sin(t38)
    c = c_old_6
    del c_old_6
    grad_sin_t38 = unbroadcast(grad_c, sin_t38)
    grad_t38 = grad_sin_t38 * np.cos(t38)
    del grad_sin_t38, t38
    grad_cos_c_27 = unbroadcast(grad_c, cos_c_27)
    grad_c = -grad_cos_c_27 * np.sin(c)
    del grad_cos_c_27
    # if np.sum(y) > np.sum(c):
    if sum_y_gt_sum_c:
        # h = np.sin(h) * np.cos(t37)
        grad_sin_h_17 = unbroadcast(grad_h * cos_t37, sin_h_17)
        grad_cos_t37 = unbroadcast(grad_h * sin_h_17, cos_t37)
        h = h_old_5
        grad_t37 = -grad_cos_t37 * np.sin(t37)
        grad_h = grad_sin_h_17 * np.cos(h)
    else:
        # h = np.tanh(h) - np.sin(x)
        h = h_old_6
        grad_sin_x_7 = unbroadcast(-grad_h, x)
        grad_x = add_into(grad_x, grad_sin_x_7 * np.cos(x))
        grad_tanh_h_12 = unbroadcast(grad_h, tanh_h_12)
        grad_h = grad_tanh_h_12 * (1 - tanh_h_12 ** 2)
        grad_t37 = zeros_like_grad(t37)
    del t37
    # t40 = np.tanh(t36) - np.tanh(y)
    grad_tanh_t36 = unbroadcast(grad_t40, tanh_t36)
    grad_tanh_y_10 = unbroadcast(-grad_t40, y)
    del grad_t40
    grad_y = add_into(grad_y, grad_tanh_y_10 * (1 - tanh_y_10 ** 2))
    del grad_tanh_y_10, tanh_y_10
    grad_t36 = grad_tanh_t36 * (1 - tanh_t36 ** 2)
    del grad_tanh_t36, tanh_t36
    # t39 = np.cos(y) - np.cos(h)
    grad_cos_y_11 = unbroadcast(grad_t39, y)
    grad_cos_h_18 = unbroadcast(-grad_t39, cos_h_18)
    del grad_t39
    grad_h = add_into(grad_h, -grad_cos_h_18 * np.sin(h))
    del grad_cos_h_18
    grad_y = add_into(grad_y, -grad_cos_y_11 * np.sin(y))
    del grad_cos_y_11
    # t38 = np.cos(c) * np.cos(c)
    grad_cos_c_25 = unbroadcast(grad_t38 * cos_c_26, cos_c_25)
    grad_cos_c_26 = unbroadcast(grad_t38 * cos_c_25, cos_c_26)
    del cos_c_25, cos_c_26, grad_t38
    grad_c = add_into(grad_c, -grad_cos_c_26 * np.sin(c))
    del grad_cos_c_26
    grad_c = add_into(grad_c, -grad_cos_c_25 * np.sin(c))
    del grad_cos_c_25
    # t37 = np.cos(c) * np.tanh(y)
    grad_cos_c_24 = unbroadcast(grad_t37 * tanh_y_9, cos_c_24)
    grad_tanh_y_9 = unbroadcast(grad_t37 * cos_c_24, y)
    del cos_c_24
    grad_y = add_into(grad_y, grad_tanh_y_9 * (1 - tanh_y_9 ** 2))
    del grad_tanh_y_9, tanh_y_9
    grad_c = add_into(grad_c, -grad_cos_c_24 * np.sin(c))
    del grad_cos_c_24
    # t36 = np.cos(y) + np.cos(h)
    grad_cos_y_10 = unbroadcast(grad_t36, y)
    grad_cos_h_17 = unbroadcast(grad_t36, cos_h_17)
    del grad_t36
    grad_h = add_into(grad_h, -grad_cos_h_17 * np.sin(h))
    del grad_cos_h_17
    grad_y = add_into(grad_y, -grad_cos_y_10 * np.sin(y))
    del grad_cos_y_10
    # c = np.cos(c) * np.sin(y)
    grad_cos_c_23 = unbroadcast(grad_c * sin_y_8, cos_c_23)
    del sin_y_8
    grad_sin_y_8 = unbroadcast(grad_c * cos_c_23, y)
    del cos_c_23
    c = c_old_7
    del c_old_7
    grad_y = add_into(grad_y, grad_sin_y_8 * np.cos(y))
    del grad_sin_y_8
    grad_c = -grad_cos_c_23 * np.sin(c)
    del grad_cos_c_23
    # if np.sum(t34) > np.sum(t35):
    if sum_t34_gt_sum_t35:
        # c = np.tanh(c) - np.sin(h)
        grad_sin_h_16 = unbroadcast(-grad_c, sin_h_16)
        c = c_old_8
        grad_h = add_into(grad_h, grad_sin_h_16 * np.cos(h))
        grad_tanh_c_20 = unbroadcast(grad_c, tanh_c_20)
        grad_c = grad_tanh_c_20 * (1 - tanh_c_20 ** 2)
    else:
        # c = np.cos(c) * np.cos(y)
        grad_cos_c_22 = unbroadcast(grad_c * cos_y_9, cos_c_22)
        grad_cos_y_9 = unbroadcast(grad_c * cos_c_22, y)
        c = c_old_9
        grad_y = add_into(grad_y, -grad_cos_y_9 * np.sin(y))
        grad_c = -grad_cos_c_22 * np.sin(c)
    # h = np.tanh(h) - np.cos(y)
    h = h_old_7
    del h_old_7
    grad_cos_y_8 = unbroadcast(-grad_h, y)
    grad_y = add_into(grad_y, -grad_cos_y_8 * np.sin(y))
    del grad_cos_y_8
    grad_tanh_h_11 = unbroadcast(grad_h, tanh_h_11)
    grad_h = grad_tanh_h_11 * (1 - tanh_h_11 ** 2)
    del grad_tanh_h_11, tanh_h_11
    # h = np.cos(h) - np.tanh(x)
    h = h_old_8
    del h_old_8
    grad_tanh_x_4 = unbroadcast(-grad_h, x)
    grad_x = add_into(grad_x, grad_tanh_x_4 * (1 - tanh_x_4 ** 2))
    del grad_tanh_x_4, tanh_x_4
    grad_cos_h_16 = unbroadcast(grad_h, cos_h_16)
    grad_h = -grad_cos_h_16 * np.sin(h)
    del grad_cos_h_16
    # h = np.cos(h) + np.cos(c)
    h = h_old_9
    del h_old_9
    grad_cos_c_21 = unbroadcast(grad_h, cos_c_21)
    grad_c = add_into(grad_c, -grad_cos_c_21 * np.sin(c))
    del grad_cos_c_21
    grad_cos_h_15 = unbroadcast(grad_h, cos_h_15)
    grad_h = -grad_cos_h_15 * np.sin(h)
    del grad_cos_h_15
    # if np.sum(y) > np.sum(x):
    if sum_y_gt_sum_x:
        # c = np.cos(c) + np.tanh(t32)
        grad_cos_c_20 = unbroadcast(grad_c, cos_c_20)
        c = c_old_10
        grad_tanh_t32 = unbroadcast(grad_c, tanh_t32)
        grad_t32 = grad_tanh_t32 * (1 - tanh_t32 ** 2)
        grad_c = -grad_cos_c_20 * np.sin(c)
    else:
        # c = np.sin(c) + np.tanh(y)
        grad_sin_c_23 = unbroadcast(grad_c, sin_c_23)
        c = c_old_11
        grad_tanh_y_8 = unbroadcast(grad_c, y)
        grad_y = add_into(grad_y, grad_tanh_y_8 * (1 - tanh_y_8 ** 2))
        grad_c = grad_sin_c_23 * np.cos(c)
        grad_t32 = zeros_like_grad(t32)
    # t32 = np.tanh(t31) - np.sin(c)
    grad_tanh_t31 = unbroadcast(grad_t32, tanh_t31)
    grad_sin_c_22 = unbroadcast(-grad_t32, sin_c_22)
    grad_c = add_into(grad_c, grad_sin_c_22 * np.cos(c))
    del grad_sin_c_22
    grad_t31 = grad_tanh_t31 * (1 - tanh_t31 ** 2)
    del grad_tanh_t31, tanh_t31
    # t31 = np.cos(t30) - np.sin(y)
    grad_cos_t30 = unbroadcast(grad_t31, cos_t30)
    grad_sin_y_7 = unbroadcast(-grad_t31, y)
    del grad_t31
    grad_y = add_into(grad_y, grad_sin_y_7 * np.cos(y))
    del grad_sin_y_7
    grad_t30 = -grad_cos_t30 * np.sin(t30)
    del grad_cos_t30, t30
    # t30 = np.sin(t29) * np.cos(h)
    grad_sin_t29 = unbroadcast(grad_t30 * cos_h_14, sin_t29)
    grad_cos_h_14 = unbroadcast(grad_t30 * sin_t29, cos_h_14)
    del cos_h_14, grad_t30, sin_t29
    grad_h = add_into(grad_h, -grad_cos_h_14 * np.sin(h))
    del grad_cos_h_14
    grad_t29 = grad_sin_t29 * np.cos(t29)
    del grad_sin_t29, t29
    # t29 = np.sin(t28) - np.cos(h)
    grad_sin_t28 = unbroadcast(grad_t29, sin_t28)
    grad_cos_h_13 = unbroadcast(-grad_t29, cos_h_13)
    del grad_t29
    grad_h = add_into(grad_h, -grad_cos_h_13 * np.sin(h))
    del grad_cos_h_13
    grad_t28 = grad_sin_t28 * np.cos(t28)
    del grad_sin_t28, t28
    # t28 = np.cos(x) * np.tanh(c)
    grad_cos_x_8 = unbroadcast(grad_t28 * tanh_c_19, x)
    grad_tanh_c_19 = unbroadcast(grad_t28 * cos_x_8, tanh_c_19)
    del cos_x_8, grad_t28
    grad_c = add_into(grad_c, grad_tanh_c_19 * (1 - tanh_c_19 ** 2))
    del grad_tanh_c_19, tanh_c_19
    grad_x = add_into(grad_x, -grad_cos_x_8 * np.sin(x))
    del grad_cos_x_8
    # c = np.sin(c) * np.cos(h)
    grad_sin_c_21 = unbroadcast(grad_c * cos_h_12, sin_c_21)
    grad_cos_h_12 = unbroadcast(grad_c * sin_c_21, cos_h_12)
    del cos_h_12, sin_c_21
    c = c_old_12
    del c_old_12
    grad_h = add_into(grad_h, -grad_cos_h_12 * np.sin(h))
    del grad_cos_h_12
    grad_c = grad_sin_c_21 * np.cos(c)
    del grad_sin_c_21
    # if np.sum(x) > np.sum(t26):
    if sum_x_gt_sum_t26:
        # c = np.tanh(c) * np.sin(t27)
        grad_tanh_c_18 = unbroadcast(grad_c * sin_t27, tanh_c_18)
        grad_sin_t27 = unbroadcast(grad_c * tanh_c_18, sin_t27)
        c = c_old_13
        grad_t27 = grad_sin_t27 * np.cos(t27)
        grad_c = grad_tanh_c_18 * (1 - tanh_c_18 ** 2)
    else:
        # c = np.sin(c) * np.sin(y)
        grad_sin_c_20 = unbroadcast(grad_c * sin_y_6, sin_c_20)
        grad_sin_y_6 = unbroadcast(grad_c * sin_c_20, y)
        c = c_old_14
        grad_y = add_into(grad_y, grad_sin_y_6 * np.cos(y))
        grad_c = grad_sin_c_20 * np.cos(c)
        grad_t27 = zeros_like_grad(t27)
    del t27
    # t27 = np.sin(x) * np.cos(c)
    grad_sin_x_6 = unbroadcast(grad_t27 * cos_c_19, x)
    grad_cos_c_19 = unbroadcast(grad_t27 * sin_x_6, cos_c_19)
    del cos_c_19, sin_x_6
    grad_c = add_into(grad_c, -grad_cos_c_19 * np.sin(c))
    del grad_cos_c_19
    grad_x = add_into(grad_x, grad_sin_x_6 * np.cos(x))
    del grad_sin_x_6
    # c = np.sin(c) * np.tanh(t25)
    grad_sin_c_19 = unbroadcast(grad_c * tanh_t25, sin_c_19)
    grad_tanh_t25 = unbroadcast(grad_c * sin_c_19, tanh_t25)
    del sin_c_19
    c = c_old_15
    del c_old_15
    grad_t25 = grad_tanh_t25 * (1 - tanh_t25 ** 2)
    del grad_tanh_t25, tanh_t25
    grad_c = grad_sin_c_19 * np.cos(c)
    del grad_sin_c_19
    # c = np.tanh(c) * np.cos(c)
    grad_tanh_c_17 = unbroadcast(grad_c * cos_c_18, tanh_c_17)
    grad_cos_c_18 = unbroadcast(grad_c * tanh_c_17, cos_c_18)
    del cos_c_18
    c = c_old_16
    del c_old_16
    grad_c = -grad_cos_c_18 * np.sin(c)
    del grad_cos_c_18
    grad_c = add_into(grad_c, grad_tanh_c_17 * (1 - tanh_c_17 ** 2))
    del grad_tanh_c_17, tanh_c_17
    # t25 = np.cos(c) + np.tanh(c)
    grad_cos_c_17 = unbroadcast(grad_t25, cos_c_17)
    grad_tanh_c_16 = unbroadcast(grad_t25, tanh_c_16)
    del grad_t25
    grad_c = add_into(grad_c, grad_tanh_c_16 * (1 - tanh_c_16 ** 2))
    del grad_tanh_c_16, tanh_c_16
    grad_c = add_into(grad_c, -grad_cos_c_17 * np.sin(c))
    del grad_cos_c_17
    # c = np.cos(c) - np.sin(y)
    c = c_old_17
    del c_old_17
    grad_sin_y_5 = unbroadcast(-grad_c, y)
    grad_y = add_into(grad_y, grad_sin_y_5 * np.cos(y))
    del grad_sin_y_5
    grad_cos_c_16 = unbroadcast(grad_c, cos_c_16)
    grad_c = -grad_cos_c_16 * np.sin(c)
    del grad_cos_c_16
    # if np.sum(t24) > np.sum(y):
    if sum_t24_gt_sum_y:
        # c = np.tanh(c) + np.tanh(h)
        c = c_old_18
        grad_tanh_h_10 = unbroadcast(grad_c, tanh_h_10)
        grad_h = add_into(grad_h, grad_tanh_h_10 * (1 - tanh_h_10 ** 2))
        grad_tanh_c_14 = unbroadcast(grad_c, tanh_c_14)
        grad_c = grad_tanh_c_14 * (1 - tanh_c_14 ** 2)
    else:
        # c = np.cos(c) * np.tanh(c)
        grad_cos_c_15 = unbroadcast(grad_c * tanh_c_15, cos_c_15)
        grad_tanh_c_15 = unbroadcast(grad_c * cos_c_15, tanh_c_15)
        c = c_old_19
        grad_c = grad_tanh_c_15 * (1 - tanh_c_15 ** 2)
        grad_c = add_into(grad_c, -grad_cos_c_15 * np.sin(c))
    # c = np.sin(c) - np.cos(c)
    grad_sin_c_18 = unbroadcast(grad_c, sin_c_18)
    c = c_old_20
    del c_old_20
    grad_cos_c_14 = unbroadcast(-grad_c, cos_c_14)
    grad_c = -grad_cos_c_14 * np.sin(c)
    del grad_cos_c_14
    grad_c = add_into(grad_c, grad_sin_c_18 * np.cos(c))
    del grad_sin_c_18
    # h = np.sin(h) * np.cos(c)
    grad_sin_h_15 = unbroadcast(grad_h * cos_c_13, sin_h_15)
    grad_cos_c_13 = unbroadcast(grad_h * sin_h_15, cos_c_13)
    del cos_c_13, sin_h_15
    h = h_old_10
    del h_old_10
    grad_c = add_into(grad_c, -grad_cos_c_13 * np.sin(c))
    del grad_cos_c_13
    grad_h = grad_sin_h_15 * np.cos(h)
    del grad_sin_h_15
    # c = np.tanh(c) * np.sin(c)
    grad_tanh_c_13 = unbroadcast(grad_c * sin_c_17, tanh_c_13)
    grad_sin_c_17 = unbroadcast(grad_c * tanh_c_13, sin_c_17)
    del sin_c_17
    c = c_old_21
    del c_old_21
    grad_c = grad_sin_c_17 * np.cos(c)
    del grad_sin_c_17
    grad_c = add_into(grad_c, grad_tanh_c_13 * (1 - tanh_c_13 ** 2))
    del grad_tanh_c_13, tanh_c_13
    # c = np.sin(c) + np.tanh(t23)
    c = c_old_22
    del c_old_22
    grad_tanh_t23 = unbroadcast(grad_c, tanh_t23)
    grad_t23 = grad_tanh_t23 * (1 - tanh_t23 ** 2)
    del grad_tanh_t23, tanh_t23
    grad_sin_c_16 = unbroadcast(grad_c, sin_c_16)
    grad_c = grad_sin_c_16 * np.cos(c)
    del grad_sin_c_16
    # t23 = np.sin(c) + np.cos(c)
    grad_sin_c_15 = unbroadcast(grad_t23, sin_c_15)
    grad_cos_c_12 = unbroadcast(grad_t23, cos_c_12)
    del grad_t23
    grad_c = add_into(grad_c, -grad_cos_c_12 * np.sin(c))
    del grad_cos_c_12
    grad_c = add_into(grad_c, grad_sin_c_15 * np.cos(c))
    del grad_sin_c_15
    # if np.sum(t22) > np.sum(x):
    if sum_t22_gt_sum_x:
        # h = np.cos(h) - np.sin(c)
        grad_cos_h_11 = unbroadcast(grad_h, cos_h_11)
        grad_sin_c_14 = unbroadcast(-grad_h, sin_c_14)
        h = h_old_11
        grad_c = add_into(grad_c, grad_sin_c_14 * np.cos(c))
        grad_h = -grad_cos_h_11 * np.sin(h)
    else:
        # h = np.tanh(h) - np.tanh(h)
        grad_tanh_h_8 = unbroadcast(grad_h, tanh_h_8)
        h = h_old_12
        grad_tanh_h_9 = unbroadcast(-grad_h, tanh_h_9)
        grad_h = grad_tanh_h_9 * (1 - tanh_h_9 ** 2)
        grad_h = add_into(grad_h, grad_tanh_h_8 * (1 - tanh_h_8 ** 2))
    # c = np.tanh(c) + np.tanh(h)
    c = c_old_23
    del c_old_23
    grad_tanh_h_7 = unbroadcast(grad_c, tanh_h_7)
    grad_h = add_into(grad_h, grad_tanh_h_7 * (1 - tanh_h_7 ** 2))
    del grad_tanh_h_7, tanh_h_7
    grad_tanh_c_12 = unbroadcast(grad_c, tanh_c_12)
    grad_c = grad_tanh_c_12 * (1 - tanh_c_12 ** 2)
    del grad_tanh_c_12, tanh_c_12
    # c = np.sin(c) - np.cos(c)
    grad_sin_c_13 = unbroadcast(grad_c, sin_c_13)
    c = c_old_24
    del c_old_24
    grad_cos_c_11 = unbroadcast(-grad_c, cos_c_11)
    grad_c = -grad_cos_c_11 * np.sin(c)
    del grad_cos_c_11
    grad_c = add_into(grad_c, grad_sin_c_13 * np.cos(c))
    del grad_sin_c_13
    # c = np.sin(c) * np.sin(x)
    grad_sin_c_12 = unbroadcast(grad_c * sin_x_5, sin_c_12)
    del sin_x_5
    grad_sin_x_5 = unbroadcast(grad_c * sin_c_12, x)
    del sin_c_12
    c = c_old_25
    del c_old_25
    grad_x = add_into(grad_x, grad_sin_x_5 * np.cos(x))
    del grad_sin_x_5
    grad_c = grad_sin_c_12 * np.cos(c)
    del grad_sin_c_12
    # h = np.sin(h) - np.cos(h)
    grad_sin_h_14 = unbroadcast(grad_h, sin_h_14)
    h = h_old_13
    del h_old_13
    grad_cos_h_10 = unbroadcast(-grad_h, cos_h_10)
    grad_h = -grad_cos_h_10 * np.sin(h)
    del grad_cos_h_10
    grad_h = add_into(grad_h, grad_sin_h_14 * np.cos(h))
    del grad_sin_h_14
    # if np.sum(h) > np.sum(x):
    if sum_h_gt_sum_x:
        # c = np.sin(c) * np.tanh(y)
        grad_sin_c_11 = unbroadcast(grad_c * tanh_y_7, sin_c_11)
        grad_tanh_y_7 = unbroadcast(grad_c * sin_c_11, y)
        c = c_old_26
        grad_y = add_into(grad_y, grad_tanh_y_7 * (1 - tanh_y_7 ** 2))
        grad_c = grad_sin_c_11 * np.cos(c)
    else:
        # c = np.cos(c) - np.tanh(c)
        grad_cos_c_10 = unbroadcast(grad_c, cos_c_10)
        c = c_old_27
        grad_tanh_c_11 = unbroadcast(-grad_c, tanh_c_11)
        grad_c = grad_tanh_c_11 * (1 - tanh_c_11 ** 2)
        grad_c = add_into(grad_c, -grad_cos_c_10 * np.sin(c))
    # c = np.sin(c) + np.tanh(x)
    c = c_old_28
    del c_old_28
    grad_tanh_x_3 = unbroadcast(grad_c, x)
    grad_x = add_into(grad_x, grad_tanh_x_3 * (1 - tanh_x_3 ** 2))
    del grad_tanh_x_3, tanh_x_3
    grad_sin_c_10 = unbroadcast(grad_c, sin_c_10)
    grad_c = grad_sin_c_10 * np.cos(c)
    del grad_sin_c_10
    # c = np.tanh(c) * np.cos(x)
    grad_tanh_c_10 = unbroadcast(grad_c * cos_x_7, tanh_c_10)
    del cos_x_7
    c = c_old_29
    del c_old_29
    grad_cos_x_7 = unbroadcast(grad_c * tanh_c_10, x)
    grad_x = add_into(grad_x, -grad_cos_x_7 * np.sin(x))
    del grad_cos_x_7
    grad_c = grad_tanh_c_10 * (1 - tanh_c_10 ** 2)
    del grad_tanh_c_10, tanh_c_10
    # h = np.sin(h) * np.sin(t20)
    grad_sin_h_13 = unbroadcast(grad_h * sin_t20, sin_h_13)
    grad_sin_t20 = unbroadcast(grad_h * sin_h_13, sin_t20)
    del sin_h_13, sin_t20
    h = h_old_14
    del h_old_14
    grad_t20 = grad_sin_t20 * np.cos(t20)
    del grad_sin_t20, t20
    grad_h = grad_sin_h_13 * np.cos(h)
    del grad_sin_h_13
    # t20 = np.cos(t19) * np.tanh(x)
    grad_cos_t19 = unbroadcast(grad_t20 * tanh_x_2, cos_t19)
    grad_tanh_x_2 = unbroadcast(grad_t20 * cos_t19, x)
    del cos_t19, grad_t20
    grad_x = add_into(grad_x, grad_tanh_x_2 * (1 - tanh_x_2 ** 2))
    del grad_tanh_x_2, tanh_x_2
    grad_t19 = -grad_cos_t19 * np.sin(t19)
    del grad_cos_t19, t19
    # t19 = np.tanh(c) + np.cos(y)
    grad_tanh_c_9 = unbroadcast(grad_t19, tanh_c_9)
    grad_cos_y_7 = unbroadcast(grad_t19, y)
    del grad_t19
    grad_y = add_into(grad_y, -grad_cos_y_7 * np.sin(y))
    del grad_cos_y_7
    grad_c = add_into(grad_c, grad_tanh_c_9 * (1 - tanh_c_9 ** 2))
    del grad_tanh_c_9, tanh_c_9
    # c = np.sin(c) + np.sin(y)
    c = c_old_30
    del c_old_30
    grad_sin_y_4 = unbroadcast(grad_c, y)
    grad_y = add_into(grad_y, grad_sin_y_4 * np.cos(y))
    del grad_sin_y_4
    grad_sin_c_9 = unbroadcast(grad_c, sin_c_9)
    grad_c = grad_sin_c_9 * np.cos(c)
    del grad_sin_c_9
    # if np.sum(h) > np.sum(h):
    if sum_h_gt_sum_h:
        # c = np.cos(c) + np.sin(h)
        grad_cos_c_8 = unbroadcast(grad_c, cos_c_8)
        grad_sin_h_11 = unbroadcast(grad_c, sin_h_11)
        c = c_old_31
        grad_h = add_into(grad_h, grad_sin_h_11 * np.cos(h))
        grad_c = -grad_cos_c_8 * np.sin(c)
    else:
        # c = np.cos(c) + np.sin(h)
        grad_cos_c_9 = unbroadcast(grad_c, cos_c_9)
        grad_sin_h_12 = unbroadcast(grad_c, sin_h_12)
        c = c_old_32
        grad_h = add_into(grad_h, grad_sin_h_12 * np.cos(h))
        grad_c = -grad_cos_c_9 * np.sin(c)
    # c = np.cos(c) - np.cos(h)
    c = c_old_33
    del c_old_33
    grad_cos_h_9 = unbroadcast(-grad_c, cos_h_9)
    grad_h = add_into(grad_h, -grad_cos_h_9 * np.sin(h))
    del grad_cos_h_9
    grad_cos_c_7 = unbroadcast(grad_c, cos_c_7)
    grad_c = -grad_cos_c_7 * np.sin(c)
    del grad_cos_c_7
    # c = np.sin(c) * np.tanh(c)
    grad_sin_c_8 = unbroadcast(grad_c * tanh_c_8, sin_c_8)
    grad_tanh_c_8 = unbroadcast(grad_c * sin_c_8, tanh_c_8)
    del sin_c_8
    c = c_old_34
    del c_old_34
    grad_c = grad_tanh_c_8 * (1 - tanh_c_8 ** 2)
    del grad_tanh_c_8, tanh_c_8
    grad_c = add_into(grad_c, grad_sin_c_8 * np.cos(c))
    del grad_sin_c_8
    # c = np.sin(c) - np.sin(c)
    grad_sin_c_6 = unbroadcast(grad_c, sin_c_6)
    c = c_old_35
    del c_old_35
    grad_sin_c_7 = unbroadcast(-grad_c, sin_c_7)
    grad_c = grad_sin_c_7 * np.cos(c)
    del grad_sin_c_7
    grad_c = add_into(grad_c, grad_sin_c_6 * np.cos(c))
    del grad_sin_c_6
    # c = np.sin(c) * np.sin(t18)
    grad_sin_c_5 = unbroadcast(grad_c * sin_t18, sin_c_5)
    del sin_t18
    grad_sin_t18 = unbroadcast(grad_c * sin_c_5, x)
    del sin_c_5
    c = c_old_36
    del c_old_36
    grad_t18 = grad_sin_t18 * np.cos(t18)
    del grad_sin_t18, t18
    grad_c = grad_sin_c_5 * np.cos(c)
    del grad_sin_c_5
    # t18 = np.cos(x) - np.sin(x)
    grad_sin_x_4 = -grad_t18
    grad_x = add_into(grad_x, grad_sin_x_4 * np.cos(x))
    del grad_sin_x_4
    grad_x = add_into(grad_x, -grad_t18 * np.sin(x))
    del grad_t18
    # h = np.tanh(h) + np.cos(x)
    h = h_old_15
    del h_old_15
    grad_cos_x_5 = unbroadcast(grad_h, x)
    grad_x = add_into(grad_x, -grad_cos_x_5 * np.sin(x))
    del grad_cos_x_5
    grad_tanh_h_6 = unbroadcast(grad_h, tanh_h_6)
    grad_h = grad_tanh_h_6 * (1 - tanh_h_6 ** 2)
    del grad_tanh_h_6, tanh_h_6
    # if np.sum(y) > np.sum(x):
    if sum_y_gt_sum_x_2:
        # c = np.tanh(c) * np.tanh(t17)
        grad_tanh_c_7 = unbroadcast(grad_c * tanh_t17, tanh_c_7)
        c = c_old_37
        grad_tanh_t17 = unbroadcast(grad_c * tanh_c_7, tanh_t17)
        grad_t17 = grad_tanh_t17 * (1 - tanh_t17 ** 2)
        grad_c = grad_tanh_c_7 * (1 - tanh_c_7 ** 2)
    else:
        # c = np.sin(c) + np.sin(h)
        grad_sin_c_4 = unbroadcast(grad_c, sin_c_4)
        grad_sin_h_10 = unbroadcast(grad_c, sin_h_10)
        c = c_old_38
        grad_h = add_into(grad_h, grad_sin_h_10 * np.cos(h))
        grad_c = grad_sin_c_4 * np.cos(c)
        grad_t17 = zeros_like_grad(t17)
    # c = np.tanh(c) + np.sin(t16)
    c = c_old_39
    del c_old_39
    grad_sin_t16 = unbroadcast(grad_c, sin_t16)
    grad_t16 = grad_sin_t16 * np.cos(t16)
    del grad_sin_t16, t16
    grad_tanh_c_6 = unbroadcast(grad_c, tanh_c_6)
    grad_c = grad_tanh_c_6 * (1 - tanh_c_6 ** 2)
    del grad_tanh_c_6, tanh_c_6
    # t17 = np.tanh(t15) - np.sin(h)
    grad_tanh_t15 = unbroadcast(grad_t17, tanh_t15)
    grad_sin_h_9 = unbroadcast(-grad_t17, sin_h_9)
    grad_h = add_into(grad_h, grad_sin_h_9 * np.cos(h))
    del grad_sin_h_9
    grad_t15 = grad_tanh_t15 * (1 - tanh_t15 ** 2)
    del grad_tanh_t15, tanh_t15
    # t16 = np.cos(c) + np.cos(y)
    grad_cos_c_6 = unbroadcast(grad_t16, cos_c_6)
    grad_cos_y_6 = unbroadcast(grad_t16, y)
    del grad_t16
    grad_y = add_into(grad_y, -grad_cos_y_6 * np.sin(y))
    del grad_cos_y_6
    grad_c = add_into(grad_c, -grad_cos_c_6 * np.sin(c))
    del grad_cos_c_6
    # t15 = np.sin(t14) - np.sin(h)
    grad_sin_t14 = unbroadcast(grad_t15, sin_t14)
    grad_sin_h_8 = unbroadcast(-grad_t15, sin_h_8)
    del grad_t15
    grad_h = add_into(grad_h, grad_sin_h_8 * np.cos(h))
    del grad_sin_h_8
    grad_t14 = grad_sin_t14 * np.cos(t14)
    del grad_sin_t14, t14
    # t14 = np.tanh(c) - np.tanh(t13)
    grad_tanh_c_5 = unbroadcast(grad_t14, tanh_c_5)
    grad_tanh_t13 = unbroadcast(-grad_t14, tanh_t13)
    del grad_t14
    grad_t13 = grad_tanh_t13 * (1 - tanh_t13 ** 2)
    del grad_tanh_t13, tanh_t13
    grad_c = add_into(grad_c, grad_tanh_c_5 * (1 - tanh_c_5 ** 2))
    del grad_tanh_c_5, tanh_c_5
    # t13 = np.tanh(y) - np.sin(c)
    grad_tanh_y_6 = unbroadcast(grad_t13, y)
    grad_sin_c_3 = unbroadcast(-grad_t13, sin_c_3)
    del grad_t13
    grad_c = add_into(grad_c, grad_sin_c_3 * np.cos(c))
    del grad_sin_c_3
    grad_y = add_into(grad_y, grad_tanh_y_6 * (1 - tanh_y_6 ** 2))
    del grad_tanh_y_6, tanh_y_6
    # if np.sum(y) > np.sum(t11):
    if sum_y_gt_sum_t11:
        # c = np.cos(c) + np.cos(h)
        grad_cos_c_5 = unbroadcast(grad_c, cos_c_5)
        grad_cos_h_8 = unbroadcast(grad_c, cos_h_8)
        c = c_old_40
        grad_h = add_into(grad_h, -grad_cos_h_8 * np.sin(h))
        grad_c = -grad_cos_c_5 * np.sin(c)
        grad_t12 = zeros_like_grad(t12)
    else:
        # c = np.sin(c) + np.cos(t12)
        grad_sin_c_2 = unbroadcast(grad_c, sin_c_2)
        c = c_old_41
        grad_cos_t12 = unbroadcast(grad_c, y)
        grad_t12 = -grad_cos_t12 * np.sin(t12)
        grad_c = grad_sin_c_2 * np.cos(c)
    del t12
    # t12 = np.sin(y) * np.tanh(y)
    grad_sin_y_3 = grad_t12 * tanh_y_5
    grad_tanh_y_5 = grad_t12 * sin_y_3
    del sin_y_3
    grad_y = add_into(grad_y, grad_tanh_y_5 * (1 - tanh_y_5 ** 2))
    del grad_tanh_y_5, tanh_y_5
    grad_y = add_into(grad_y, grad_sin_y_3 * np.cos(y))
    del grad_sin_y_3
    # h = np.sin(h) + np.sin(t10)
    h = h_old_16
    del h_old_16
    grad_sin_t10 = unbroadcast(grad_h, sin_t10)
    grad_t10 = grad_sin_t10 * np.cos(t10)
    del grad_sin_t10, t10
    grad_sin_h_7 = unbroadcast(grad_h, sin_h_7)
    grad_h = grad_sin_h_7 * np.cos(h)
    del grad_sin_h_7
    # t10 = np.sin(x) - np.tanh(c)
    grad_sin_x_3 = unbroadcast(grad_t10, x)
    grad_tanh_c_4 = unbroadcast(-grad_t10, tanh_c_4)
    del grad_t10
    grad_c = add_into(grad_c, grad_tanh_c_4 * (1 - tanh_c_4 ** 2))
    del grad_tanh_c_4, tanh_c_4
    grad_x = add_into(grad_x, grad_sin_x_3 * np.cos(x))
    del grad_sin_x_3
    # h = np.cos(h) - np.cos(x)
    h = h_old_17
    del h_old_17
    grad_cos_x_4 = unbroadcast(-grad_h, x)
    grad_x = add_into(grad_x, -grad_cos_x_4 * np.sin(x))
    del grad_cos_x_4
    grad_cos_h_7 = unbroadcast(grad_h, cos_h_7)
    grad_h = -grad_cos_h_7 * np.sin(h)
    del grad_cos_h_7
    # c = np.cos(c) * np.cos(x)
    grad_cos_c_4 = unbroadcast(grad_c * cos_x_3, cos_c_4)
    del cos_x_3
    grad_cos_x_3 = unbroadcast(grad_c * cos_c_4, x)
    del cos_c_4
    c = c_old_42
    del c_old_42
    grad_x = add_into(grad_x, -grad_cos_x_3 * np.sin(x))
    del grad_cos_x_3
    grad_c = -grad_cos_c_4 * np.sin(c)
    del grad_cos_c_4
    # if np.sum(t9) > np.sum(c):
    if sum_t9_gt_sum_c:
        # h = np.cos(h) - np.sin(h)
        grad_cos_h_6 = unbroadcast(grad_h, cos_h_6)
        grad_sin_h_5 = unbroadcast(-grad_h, sin_h_5)
        h = h_old_18
        grad_h = grad_sin_h_5 * np.cos(h)
        grad_h = add_into(grad_h, -grad_cos_h_6 * np.sin(h))
    else:
        # h = np.sin(h) - np.tanh(c)
        grad_sin_h_6 = unbroadcast(grad_h, sin_h_6)
        h = h_old_19
        grad_tanh_c_3 = unbroadcast(-grad_h, tanh_c_3)
        grad_c = add_into(grad_c, grad_tanh_c_3 * (1 - tanh_c_3 ** 2))
        grad_h = grad_sin_h_6 * np.cos(h)
    # c = np.cos(c) - np.tanh(t6)
    c = c_old_43
    del c_old_43
    grad_tanh_t6 = unbroadcast(-grad_c, tanh_t6)
    grad_t6 = grad_tanh_t6 * (1 - tanh_t6 ** 2)
    del grad_tanh_t6, tanh_t6
    grad_cos_c_3 = unbroadcast(grad_c, cos_c_3)
    grad_c = -grad_cos_c_3 * np.sin(c)
    del grad_cos_c_3
    # t6 = np.cos(t5) * np.tanh(c)
    grad_cos_t5 = unbroadcast(grad_t6 * tanh_c_2, cos_t5)
    grad_tanh_c_2 = unbroadcast(grad_t6 * cos_t5, tanh_c_2)
    del cos_t5, grad_t6
    grad_c = add_into(grad_c, grad_tanh_c_2 * (1 - tanh_c_2 ** 2))
    del grad_tanh_c_2, tanh_c_2
    grad_t5 = -grad_cos_t5 * np.sin(t5)
    del grad_cos_t5, t5
    # t5 = np.tanh(c) * np.cos(c)
    grad_tanh_c = unbroadcast(grad_t5 * cos_c_2, tanh_c)
    grad_cos_c_2 = unbroadcast(grad_t5 * tanh_c, cos_c_2)
    del cos_c_2, grad_t5
    grad_c = add_into(grad_c, -grad_cos_c_2 * np.sin(c))
    del grad_cos_c_2
    grad_c = add_into(grad_c, grad_tanh_c * (1 - tanh_c ** 2))
    del grad_tanh_c, tanh_c
    # if np.sum(y) > np.sum(x):
    if sum_y_gt_sum_x_3:
        # h = np.tanh(h) - np.cos(y)
        h = h_old_20
        grad_cos_y_5 = unbroadcast(-grad_h, y)
        grad_y = add_into(grad_y, -grad_cos_y_5 * np.sin(y))
        grad_tanh_h_4 = unbroadcast(grad_h, tanh_h_4)
        grad_h = grad_tanh_h_4 * (1 - tanh_h_4 ** 2)
    else:
        # h = np.tanh(h) * np.cos(h)
        grad_tanh_h_5 = unbroadcast(grad_h * cos_h_5, tanh_h_5)
        grad_cos_h_5 = unbroadcast(grad_h * tanh_h_5, cos_h_5)
        h = h_old_21
        grad_h = -grad_cos_h_5 * np.sin(h)
        grad_h = add_into(grad_h, grad_tanh_h_5 * (1 - tanh_h_5 ** 2))
    # h = np.sin(h) + np.tanh(t4)
    h = h_old_22
    del h_old_22
    grad_tanh_t4 = unbroadcast(grad_h, tanh_t4)
    grad_t4 = grad_tanh_t4 * (1 - tanh_t4 ** 2)
    del grad_tanh_t4, tanh_t4
    grad_sin_h_4 = unbroadcast(grad_h, sin_h_4)
    grad_h = grad_sin_h_4 * np.cos(h)
    del grad_sin_h_4
    # t4 = np.cos(t3) * np.tanh(y)
    grad_cos_t3 = unbroadcast(grad_t4 * tanh_y_4, cos_t3)
    grad_tanh_y_4 = unbroadcast(grad_t4 * cos_t3, y)
    del cos_t3, grad_t4
    grad_y = add_into(grad_y, grad_tanh_y_4 * (1 - tanh_y_4 ** 2))
    del grad_tanh_y_4, tanh_y_4
    grad_t3 = -grad_cos_t3 * np.sin(t3)
    del grad_cos_t3, t3
    # h = np.sin(h) * np.cos(x)
    grad_sin_h_3 = unbroadcast(grad_h * cos_x_2, sin_h_3)
    del cos_x_2
    grad_cos_x_2 = unbroadcast(grad_h * sin_h_3, x)
    del sin_h_3
    h = h_old_23
    del h_old_23
    grad_x = add_into(grad_x, -grad_cos_x_2 * np.sin(x))
    del grad_cos_x_2
    grad_h = grad_sin_h_3 * np.cos(h)
    del grad_sin_h_3
    # t3 = np.tanh(t2) * np.sin(x)
    grad_tanh_t2 = unbroadcast(grad_t3 * sin_x_2, tanh_t2)
    del sin_x_2
    grad_sin_x_2 = unbroadcast(grad_t3 * tanh_t2, x)
    del grad_t3
    grad_x = add_into(grad_x, grad_sin_x_2 * np.cos(x))
    del grad_sin_x_2
    grad_t2 = grad_tanh_t2 * (1 - tanh_t2 ** 2)
    del grad_tanh_t2, tanh_t2
    # h = np.cos(h) + np.cos(y)
    h = h_old_24
    del h_old_24
    grad_cos_y_4 = unbroadcast(grad_h, y)
    grad_y = add_into(grad_y, -grad_cos_y_4 * np.sin(y))
    del grad_cos_y_4
    grad_cos_h_4 = unbroadcast(grad_h, cos_h_4)
    grad_h = -grad_cos_h_4 * np.sin(h)
    del grad_cos_h_4
    # t2 = np.cos(c) - np.tanh(y)
    grad_cos_c = unbroadcast(grad_t2, cos_c)
    grad_tanh_y_3 = unbroadcast(-grad_t2, y)
    del grad_t2
    grad_y = add_into(grad_y, grad_tanh_y_3 * (1 - tanh_y_3 ** 2))
    del grad_tanh_y_3, tanh_y_3
    grad_c = add_into(grad_c, -grad_cos_c * np.sin(c))
    del grad_cos_c
    # if np.sum(t1) > np.sum(x):
    if sum_t1_gt_sum_x:
        # h = np.sin(h) * np.tanh(x)
        grad_sin_h_2 = unbroadcast(grad_h * tanh_x, sin_h_2)
        grad_tanh_x = unbroadcast(grad_h * sin_h_2, x)
        h = h_old_25
        grad_x = add_into(grad_x, grad_tanh_x * (1 - tanh_x ** 2))
        grad_h = grad_sin_h_2 * np.cos(h)
    else:
        # h = np.tanh(h) * np.tanh(y)
        grad_tanh_h_3 = unbroadcast(grad_h * tanh_y_2, tanh_h_3)
        h = h_old_26
        grad_tanh_y_2 = unbroadcast(grad_h * tanh_h_3, y)
        grad_y = add_into(grad_y, grad_tanh_y_2 * (1 - tanh_y_2 ** 2))
        grad_h = grad_tanh_h_3 * (1 - tanh_h_3 ** 2)
    # h = np.cos(h) - np.tanh(y)
    h = h_old_27
    del h_old_27
    grad_tanh_y = unbroadcast(-grad_h, y)
    grad_y = add_into(grad_y, grad_tanh_y * (1 - tanh_y ** 2))
    del grad_tanh_y, tanh_y
    grad_cos_h_3 = unbroadcast(grad_h, cos_h_3)
    grad_h = -grad_cos_h_3 * np.sin(h)
    del grad_cos_h_3
    # h = np.cos(h) * np.cos(t0)
    grad_cos_h_2 = unbroadcast(grad_h * cos_t0, cos_h_2)
    grad_cos_t0 = unbroadcast(grad_h * cos_h_2, cos_t0)
    del cos_h_2, cos_t0
    h = h_old_28
    del h_old_28
    grad_t0 = -grad_cos_t0 * np.sin(t0)
    del grad_cos_t0, t0
    grad_h = -grad_cos_h_2 * np.sin(h)
    del grad_cos_h_2
    # h = np.tanh(h) + np.sin(h)
    grad_tanh_h_2 = unbroadcast(grad_h, tanh_h_2)
    h = h_old_29
    del h_old_29
    grad_sin_h = unbroadcast(grad_h, sin_h)
    grad_h = grad_sin_h * np.cos(h)
    del grad_sin_h
    grad_h = add_into(grad_h, grad_tanh_h_2 * (1 - tanh_h_2 ** 2))
    del grad_tanh_h_2, tanh_h_2
    # t0 = np.cos(y) * np.tanh(h)
    grad_cos_y_3 = unbroadcast(grad_t0 * tanh_h, y)
    grad_tanh_h = unbroadcast(grad_t0 * cos_y_3, tanh_h)
    del cos_y_3, grad_t0
    grad_h = add_into(grad_h, grad_tanh_h * (1 - tanh_h ** 2))
    del grad_tanh_h, tanh_h
    grad_y = add_into(grad_y, -grad_cos_y_3 * np.sin(y))
    del grad_cos_y_3
    # c = np.sin(c) + np.sin(y)
    c = c_old_44
    del c_old_44
    grad_sin_y_2 = unbroadcast(grad_c, y)
    grad_y = add_into(grad_y, grad_sin_y_2 * np.cos(y))
    del grad_sin_y_2
    grad_sin_c = unbroadcast(grad_c, sin_c)
    grad_c = grad_sin_c * np.cos(c)
    del c, grad_sin_c
    # h = np.cos(h) + np.cos(y)
    h = h_old_30
    del h_old_30
    grad_cos_y_2 = unbroadcast(grad_h, y)
    grad_y = add_into(grad_y, -grad_cos_y_2 * np.sin(y))
    del grad_cos_y_2
    grad_cos_h = unbroadcast(grad_h, cos_h)
    grad_h = -grad_cos_h * np.sin(h)
    del grad_cos_h, h
    # c = np.sin(y) * np.cos(x)
    grad_sin_y = unbroadcast(grad_c * cos_x, y)
    del cos_x
    grad_cos_x = unbroadcast(grad_c * sin_y, x)
    del grad_c, sin_y
    grad_x = add_into(grad_x, -grad_cos_x * np.sin(x))
    del grad_cos_x
    grad_y = add_into(grad_y, grad_sin_y * np.cos(y))
    del grad_sin_y
    # h = np.sin(x) * np.cos(y)
    grad_sin_x = unbroadcast(grad_h * cos_y, x)
    del cos_y
    grad_cos_y = unbroadcast(grad_h * sin_x, y)
    del grad_h, sin_x
    grad_y = add_into(grad_y, -grad_cos_y * np.sin(y))
    del grad_cos_y
    grad_x = add_into(grad_x, grad_sin_x * np.cos(x))
    return as_gradient(grad_x, x), as_gradient(grad_y, y)
