def grad_f(x, y):
    # h = np.sin(x) * np.cos(y)
    sin_x = np.sin(x)
    cos_y = np.cos(y)
    h = sin_x * cos_y
    # c = np.sin(y) * np.cos(x)
    sin_y = np.sin(y)
    cos_x = np.cos(x)
    c = sin_y * cos_x
    # t0 = np.sin(h) + np.sin(x)
    sin_h = np.sin(h)
    t0 = sin_h + np.sin(x)
    # t1 = np.cos(x) * np.sin(t0)
    cos_x_2 = np.cos(x)
    sin_t0 = np.sin(t0)
    t1 = cos_x_2 * sin_t0
    # t2 = np.cos(t1) * np.tanh(y)
    cos_t1 = np.cos(t1)
    tanh_y = np.tanh(y)
    t2 = cos_t1 * tanh_y
    # t3 = np.cos(t2) * np.tanh(y)
    cos_t2 = np.cos(t2)
    tanh_y_2 = np.tanh(y)
    t3 = cos_t2 * tanh_y_2
    # h = np.sin(h) - np.cos(t3)
    sin_h_2 = np.sin(h)
    cos_t3 = np.cos(t3)
    h_old_71 = h
    h = sin_h_2 - cos_t3
    # t4 = np.tanh(y) + np.sin(c)
    tanh_y_3 = np.tanh(y)
    sin_c = np.sin(c)
    t4 = tanh_y_3 + sin_c
    # h = np.cos(h) + np.tanh(t4)
    cos_h = np.cos(h)
    tanh_t4 = np.tanh(t4)
    h_old_70 = h
    h = cos_h + tanh_t4
    # if np.sum(c) > np.sum(y):
    sum_c_gt_sum_y = np.sum(c) > np.sum(y)
    if sum_c_gt_sum_y:
        # c = np.cos(c) * np.tanh(x)
        cos_c = np.cos(c)
        tanh_x = np.tanh(x)
        c_old_59 = c
        c = cos_c * tanh_x
    else:
        # c = np.cos(c) - np.sin(y)
        cos_c_2 = np.cos(c)
        sin_y_2 = np.sin(y)
        c_old_60 = c
        c = cos_c_2 - sin_y_2
    # t5 = np.tanh(y) * np.tanh(y)
    tanh_y_4 = np.tanh(y)
    tanh_y_5 = np.tanh(y)
    t5 = tanh_y_4 * tanh_y_5
    # t6 = np.cos(t5) * np.tanh(x)
    cos_t5 = np.cos(t5)
    tanh_x_2 = np.tanh(x)
    t6 = cos_t5 * tanh_x_2
    # t7 = np.cos(y) * np.cos(y)
    cos_y_2 = np.cos(y)
    cos_y_3 = np.cos(y)
    t7 = cos_y_2 * cos_y_3
    t8 = np.tanh(c) - np.cos(y)
    # c = np.cos(c) * np.tanh(t6)
    cos_c_3 = np.cos(c)
    tanh_t6 = np.tanh(t6)
    c_old_58 = c
    c = cos_c_3 * tanh_t6
    # h = np.cos(h) * np.sin(t7)
    cos_h_2 = np.cos(h)
    sin_t7 = np.sin(t7)
    h_old_69 = h
    h = cos_h_2 * sin_t7
    # if np.sum(t8) > np.sum(h):
    sum_t8_gt_sum_h = np.sum(t8) > np.sum(h)
    if sum_t8_gt_sum_h:
        # h = np.cos(h) * np.tanh(c)
        cos_h_3 = np.cos(h)
        tanh_c = np.tanh(c)
        h_old_67 = h
        h = cos_h_3 * tanh_c
    else:
        # h = np.sin(h) * np.cos(c)
        sin_h_3 = np.sin(h)
        cos_c_4 = np.cos(c)
        h_old_68 = h
        h = sin_h_3 * cos_c_4
    # h = np.sin(h) - np.sin(h)
    sin_h_4 = np.sin(h)
    sin_h_5 = np.sin(h)
    h_old_66 = h
    h = sin_h_4 - sin_h_5
    # h = np.sin(h) * np.sin(h)
    sin_h_6 = np.sin(h)
    sin_h_7 = np.sin(h)
    h_old_65 = h
    h = sin_h_6 * sin_h_7
    # h = np.sin(h) + np.cos(h)
    sin_h_8 = np.sin(h)
    cos_h_4 = np.cos(h)
    h_old_64 = h
    h = sin_h_8 + cos_h_4
    # h = np.tanh(h) + np.cos(h)
    tanh_h = np.tanh(h)
    cos_h_5 = np.cos(h)
    h_old_63 = h
    h = tanh_h + cos_h_5
    t9 = np.sin(c) + np.cos(h)
    t10 = np.cos(h) - np.cos(t9)
    # if np.sum(t10) > np.sum(h):
    sum_t10_gt_sum_h = np.sum(t10) > np.sum(h)
    if sum_t10_gt_sum_h:
        # c = np.cos(c) - np.cos(c)
        cos_c_5 = np.cos(c)
        cos_c_6 = np.cos(c)
        c_old_56 = c
        c = cos_c_5 - cos_c_6
    else:
        # c = np.sin(c) + np.sin(x)
        sin_c_2 = np.sin(c)
        sin_x_3 = np.sin(x)
        c_old_57 = c
        c = sin_c_2 + sin_x_3
    # h = np.tanh(h) * np.cos(y)
    tanh_h_2 = np.tanh(h)
    cos_y_4 = np.cos(y)
    h_old_62 = h
    h = tanh_h_2 * cos_y_4
    # t11 = np.cos(c) - np.tanh(x)
    cos_c_7 = np.cos(c)
    tanh_x_3 = np.tanh(x)
    t11 = cos_c_7 - tanh_x_3
    # t12 = np.tanh(c) + np.sin(t11)
    tanh_c_2 = np.tanh(c)
    sin_t11 = np.sin(t11)
    t12 = tanh_c_2 + sin_t11
    # h = np.cos(h) * np.tanh(t12)
    cos_h_6 = np.cos(h)
    tanh_t12 = np.tanh(t12)
    h_old_61 = h
    h = cos_h_6 * tanh_t12
    t13 = np.sin(c) * np.sin(y)
    # h = np.tanh(h) * np.tanh(x)
    tanh_h_3 = np.tanh(h)
    tanh_x_4 = np.tanh(x)
    h_old_60 = h
    h = tanh_h_3 * tanh_x_4
    # if np.sum(t13) > np.sum(h):
    sum_t13_gt_sum_h = np.sum(t13) > np.sum(h)
    if sum_t13_gt_sum_h:
        # c = np.sin(c) + np.cos(y)
        sin_c_3 = np.sin(c)
        cos_y_5 = np.cos(y)
        c_old_54 = c
        c = sin_c_3 + cos_y_5
    else:
        # c = np.sin(c) + np.sin(h)
        sin_c_4 = np.sin(c)
        sin_h_9 = np.sin(h)
        c_old_55 = c
        c = sin_c_4 + sin_h_9
    # h = np.sin(h) + np.sin(h)
    sin_h_10 = np.sin(h)
    sin_h_11 = np.sin(h)
    h_old_59 = h
    h = sin_h_10 + sin_h_11
    # c = np.cos(c) - np.sin(y)
    cos_c_8 = np.cos(c)
    sin_y_3 = np.sin(y)
    c_old_53 = c
    c = cos_c_8 - sin_y_3
    # t14 = np.tanh(c) - np.tanh(y)
    tanh_c_3 = np.tanh(c)
    tanh_y_6 = np.tanh(y)
    t14 = tanh_c_3 - tanh_y_6
    # h = np.cos(h) * np.sin(t14)
    cos_h_7 = np.cos(h)
    sin_t14 = np.sin(t14)
    h_old_58 = h
    h = cos_h_7 * sin_t14
    t15 = np.cos(y) + np.tanh(h)
    # c = np.cos(c) + np.sin(y)
    cos_c_9 = np.cos(c)
    sin_y_4 = np.sin(y)
    c_old_52 = c
    c = cos_c_9 + sin_y_4
    # if np.sum(t15) > np.sum(h):
    sum_t15_gt_sum_h = np.sum(t15) > np.sum(h)
    if sum_t15_gt_sum_h:
        # h = np.cos(h) + np.tanh(y)
        cos_h_8 = np.cos(h)
        tanh_y_7 = np.tanh(y)
        h_old_56 = h
        h = cos_h_8 + tanh_y_7
    else:
        # h = np.cos(h) - np.tanh(c)
        cos_h_9 = np.cos(h)
        tanh_c_4 = np.tanh(c)
        h_old_57 = h
        h = cos_h_9 - tanh_c_4
    # t16 = np.cos(h) + np.cos(x)
    cos_h_10 = np.cos(h)
    t16 = cos_h_10 + np.cos(x)
    # t17 = np.cos(t16) + np.tanh(h)
    cos_t16 = np.cos(t16)
    tanh_h_4 = np.tanh(h)
    t17 = cos_t16 + tanh_h_4
    # c = np.sin(c) - np.sin(t17)
    sin_c_5 = np.sin(c)
    sin_t17 = np.sin(t17)
    c_old_51 = c
    c = sin_c_5 - sin_t17
    # h = np.sin(h) * np.tanh(x)
    sin_h_12 = np.sin(h)
    tanh_x_5 = np.tanh(x)
    h_old_55 = h
    h = sin_h_12 * tanh_x_5
    # h = np.tanh(h) + np.tanh(h)
    tanh_h_5 = np.tanh(h)
    tanh_h_6 = np.tanh(h)
    h_old_54 = h
    h = tanh_h_5 + tanh_h_6
    # t18 = np.tanh(h) * np.cos(y)
    tanh_h_7 = np.tanh(h)
    cos_y_6 = np.cos(y)
    t18 = tanh_h_7 * cos_y_6
    # if np.sum(c) > np.sum(x):
    sum_c_gt_sum_x = np.sum(c) > np.sum(x)
    if sum_c_gt_sum_x:
        # c = np.cos(c) * np.cos(y)
        cos_c_10 = np.cos(c)
        cos_y_7 = np.cos(y)
        c_old_49 = c
        c = cos_c_10 * cos_y_7
    else:
        # c = np.tanh(c) - np.sin(t18)
        tanh_c_5 = np.tanh(c)
        sin_t18 = np.sin(t18)
        c_old_50 = c
        c = tanh_c_5 - sin_t18
    # c = np.tanh(c) - np.tanh(h)
    tanh_c_6 = np.tanh(c)
    tanh_h_8 = np.tanh(h)
    c_old_48 = c
    c = tanh_c_6 - tanh_h_8
    # t19 = np.sin(h) - np.tanh(c)
    sin_h_13 = np.sin(h)
    tanh_c_7 = np.tanh(c)
    t19 = sin_h_13 - tanh_c_7
    # c = np.sin(c) + np.sin(h)
    sin_c_6 = np.sin(c)
    sin_h_14 = np.sin(h)
    c_old_47 = c
    c = sin_c_6 + sin_h_14
    # t20 = np.tanh(t19) * np.cos(x)
    tanh_t19 = np.tanh(t19)
    cos_x_4 = np.cos(x)
    t20 = tanh_t19 * cos_x_4
    # c = np.sin(c) + np.cos(t20)
    sin_c_7 = np.sin(c)
    cos_t20 = np.cos(t20)
    c_old_46 = c
    c = sin_c_7 + cos_t20
    # h = np.tanh(h) * np.sin(x)
    tanh_h_9 = np.tanh(h)
    sin_x_4 = np.sin(x)
    h_old_53 = h
    h = tanh_h_9 * sin_x_4
    # if np.sum(y) > np.sum(c):
    sum_y_gt_sum_c_2 = np.sum(y) > np.sum(c)
    if sum_y_gt_sum_c_2:
        # h = np.cos(h) - np.cos(c)
        cos_h_11 = np.cos(h)
        cos_c_11 = np.cos(c)
        h_old_51 = h
        h = cos_h_11 - cos_c_11
    else:
        # h = np.cos(h) * np.tanh(h)
        cos_h_12 = np.cos(h)
        tanh_h_10 = np.tanh(h)
        h_old_52 = h
        h = cos_h_12 * tanh_h_10
    # h = np.cos(h) * np.cos(h)
    cos_h_13 = np.cos(h)
    cos_h_14 = np.cos(h)
    h_old_50 = h
    h = cos_h_13 * cos_h_14
    # c = np.tanh(c) * np.tanh(y)
    tanh_c_8 = np.tanh(c)
    tanh_y_8 = np.tanh(y)
    c_old_45 = c
    c = tanh_c_8 * tanh_y_8
    # t21 = np.tanh(x) - np.tanh(h)
    tanh_x_6 = np.tanh(x)
    tanh_h_11 = np.tanh(h)
    t21 = tanh_x_6 - tanh_h_11
    # h = np.cos(h) * np.tanh(t21)
    cos_h_15 = np.cos(h)
    tanh_t21 = np.tanh(t21)
    h_old_49 = h
    h = cos_h_15 * tanh_t21
    t22 = np.cos(x) * np.tanh(y)
    # h = np.sin(h) - np.sin(y)
    sin_h_15 = np.sin(h)
    sin_y_5 = np.sin(y)
    h_old_48 = h
    h = sin_h_15 - sin_y_5
    # if np.sum(t22) > np.sum(c):
    sum_t22_gt_sum_c = np.sum(t22) > np.sum(c)
    if sum_t22_gt_sum_c:
        # h = np.cos(h) * np.cos(c)
        cos_h_16 = np.cos(h)
        cos_c_12 = np.cos(c)
        h_old_46 = h
        h = cos_h_16 * cos_c_12
    else:
        # h = np.tanh(h) + np.tanh(h)
        tanh_h_12 = np.tanh(h)
        tanh_h_13 = np.tanh(h)
        h_old_47 = h
        h = tanh_h_12 + tanh_h_13
    t23 = np.cos(y) * np.cos(c)
    t24 = np.cos(h) + np.tanh(h)
    # c = np.cos(c) - np.sin(y)
    cos_c_13 = np.cos(c)
    sin_y_6 = np.sin(y)
    c_old_44 = c
    c = cos_c_13 - sin_y_6
    t25 = np.sin(x) - np.tanh(t23)
    t26 = np.sin(c) + np.cos(t24)
    t27 = np.cos(t25) * np.sin(t26)
    # if np.sum(t27) > np.sum(y):
    sum_t27_gt_sum_y = np.sum(t27) > np.sum(y)
    if sum_t27_gt_sum_y:
        # c = np.tanh(c) - np.tanh(c)
        tanh_c_9 = np.tanh(c)
        tanh_c_10 = np.tanh(c)
        c_old_42 = c
        c = tanh_c_9 - tanh_c_10
    else:
        # c = np.cos(c) - np.cos(c)
        cos_c_14 = np.cos(c)
        cos_c_15 = np.cos(c)
        c_old_43 = c
        c = cos_c_14 - cos_c_15
    # t28 = np.sin(x) - np.cos(x)
    sin_x_5 = np.sin(x)
    t28 = sin_x_5 - np.cos(x)
    # c = np.tanh(c) * np.sin(t28)
    tanh_c_11 = np.tanh(c)
    sin_t28 = np.sin(t28)
    c_old_41 = c
    c = tanh_c_11 * sin_t28
    # t29 = np.cos(c) * np.tanh(c)
    cos_c_16 = np.cos(c)
    tanh_c_12 = np.tanh(c)
    t29 = cos_c_16 * tanh_c_12
    # t30 = np.sin(t29) - np.tanh(c)
    sin_t29 = np.sin(t29)
    tanh_c_13 = np.tanh(c)
    t30 = sin_t29 - tanh_c_13
    # h = np.sin(h) * np.cos(y)
    sin_h_16 = np.sin(h)
    cos_y_8 = np.cos(y)
    h_old_45 = h
    h = sin_h_16 * cos_y_8
    # c = np.sin(c) - np.sin(t30)
    sin_c_8 = np.sin(c)
    sin_t30 = np.sin(t30)
    c_old_40 = c
    c = sin_c_8 - sin_t30
    # if np.sum(y) > np.sum(x):
    sum_y_gt_sum_x = np.sum(y) > np.sum(x)
    if sum_y_gt_sum_x:
        # c = np.cos(c) + np.tanh(y)
        cos_c_17 = np.cos(c)
        tanh_y_9 = np.tanh(y)
        c_old_38 = c
        c = cos_c_17 + tanh_y_9
    else:
        # c = np.sin(c) - np.sin(x)
        sin_c_9 = np.sin(c)
        sin_x_6 = np.sin(x)
        c_old_39 = c
        c = sin_c_9 - sin_x_6
    # h = np.cos(h) + np.sin(x)
    cos_h_17 = np.cos(h)
    sin_x_7 = np.sin(x)
    h_old_44 = h
    h = cos_h_17 + sin_x_7
    # h = np.sin(h) - np.cos(y)
    sin_h_17 = np.sin(h)
    cos_y_9 = np.cos(y)
    h_old_43 = h
    h = sin_h_17 - cos_y_9
    # t31 = np.cos(x) * np.tanh(x)
    cos_x_6 = np.cos(x)
    tanh_x_7 = np.tanh(x)
    t31 = cos_x_6 * tanh_x_7
    # c = np.tanh(c) * np.cos(h)
    tanh_c_14 = np.tanh(c)
    cos_h_18 = np.cos(h)
    c_old_37 = c
    c = tanh_c_14 * cos_h_18
    # c = np.sin(c) - np.cos(x)
    sin_c_10 = np.sin(c)
    cos_x_7 = np.cos(x)
    c_old_36 = c
    c = sin_c_10 - cos_x_7
    # h = np.cos(h) - np.sin(t31)
    cos_h_19 = np.cos(h)
    sin_t31 = np.sin(t31)
    h_old_42 = h
    h = cos_h_19 - sin_t31
    # if np.sum(x) > np.sum(c):
    sum_x_gt_sum_c = np.sum(x) > np.sum(c)
    if sum_x_gt_sum_c:
        # h = np.cos(h) + np.sin(y)
        cos_h_20 = np.cos(h)
        sin_y_7 = np.sin(y)
        h_old_40 = h
        h = cos_h_20 + sin_y_7
    else:
        # h = np.tanh(h) - np.tanh(c)
        tanh_h_14 = np.tanh(h)
        tanh_c_15 = np.tanh(c)
        h_old_41 = h
        h = tanh_h_14 - tanh_c_15
    # c = np.cos(c) * np.cos(c)
    cos_c_18 = np.cos(c)
    cos_c_19 = np.cos(c)
    c_old_35 = c
    c = cos_c_18 * cos_c_19
    # c = np.sin(c) + np.cos(c)
    sin_c_11 = np.sin(c)
    cos_c_20 = np.cos(c)
    c_old_34 = c
    c = sin_c_11 + cos_c_20
    # c = np.cos(c) - np.cos(h)
    cos_c_21 = np.cos(c)
    cos_h_21 = np.cos(h)
    c_old_33 = c
    c = cos_c_21 - cos_h_21
    # h = np.tanh(h) * np.cos(h)
    tanh_h_15 = np.tanh(h)
    cos_h_22 = np.cos(h)
    h_old_39 = h
    h = tanh_h_15 * cos_h_22
    # t32 = np.sin(h) + np.cos(h)
    sin_h_18 = np.sin(h)
    cos_h_23 = np.cos(h)
    t32 = sin_h_18 + cos_h_23
    # c = np.sin(c) - np.sin(t32)
    sin_c_12 = np.sin(c)
    sin_t32 = np.sin(t32)
    c_old_32 = c
    c = sin_c_12 - sin_t32
    # if np.sum(y) > np.sum(c):
    sum_y_gt_sum_c = np.sum(y) > np.sum(c)
    if sum_y_gt_sum_c:
        # c = np.sin(c) - np.cos(y)
        sin_c_13 = np.sin(c)
        cos_y_10 = np.cos(y)
        c_old_30 = c
        c = sin_c_13 - cos_y_10
    else:
        # c = np.tanh(c) - np.tanh(h)
        tanh_c_16 = np.tanh(c)
        tanh_h_16 = np.tanh(h)
        c_old_31 = c
        c = tanh_c_16 - tanh_h_16
    # t33 = np.cos(y) * np.sin(y)
    cos_y_11 = np.cos(y)
    sin_y_8 = np.sin(y)
    t33 = cos_y_11 * sin_y_8
    # c = np.sin(c) + np.tanh(t33)
    sin_c_14 = np.sin(c)
    tanh_t33 = np.tanh(t33)
    c_old_29 = c
    c = sin_c_14 + tanh_t33
    # h = np.sin(h) - np.cos(x)
    sin_h_19 = np.sin(h)
    cos_x_8 = np.cos(x)
    h_old_38 = h
    h = sin_h_19 - cos_x_8
    # t34 = np.cos(h) + np.sin(x)
    cos_h_24 = np.cos(h)
    t34 = cos_h_24 + np.sin(x)
    # h = np.cos(h) * np.tanh(x)
    cos_h_25 = np.cos(h)
    tanh_x_8 = np.tanh(x)
    h_old_37 = h
    h = cos_h_25 * tanh_x_8
    # c = np.sin(c) + np.tanh(t34)
    sin_c_15 = np.sin(c)
    tanh_t34 = np.tanh(t34)
    c_old_28 = c
    c = sin_c_15 + tanh_t34
    # if np.sum(c) > np.sum(h):
    sum_c_gt_sum_h = np.sum(c) > np.sum(h)
    if sum_c_gt_sum_h:
        # h = np.sin(h) + np.tanh(h)
        sin_h_20 = np.sin(h)
        tanh_h_17 = np.tanh(h)
        h_old_35 = h
        h = sin_h_20 + tanh_h_17
    else:
        # h = np.cos(h) * np.sin(c)
        cos_h_26 = np.cos(h)
        sin_c_16 = np.sin(c)
        h_old_36 = h
        h = cos_h_26 * sin_c_16
    # h = np.sin(h) * np.sin(h)
    sin_h_21 = np.sin(h)
    sin_h_22 = np.sin(h)
    h_old_34 = h
    h = sin_h_21 * sin_h_22
    # h = np.sin(h) * np.tanh(c)
    sin_h_23 = np.sin(h)
    tanh_c_17 = np.tanh(c)
    h_old_33 = h
    h = sin_h_23 * tanh_c_17
    # c = np.tanh(c) * np.tanh(c)
    tanh_c_18 = np.tanh(c)
    tanh_c_19 = np.tanh(c)
    c_old_27 = c
    c = tanh_c_18 * tanh_c_19
    # h = np.tanh(h) + np.cos(c)
    tanh_h_18 = np.tanh(h)
    cos_c_22 = np.cos(c)
    h_old_32 = h
    h = tanh_h_18 + cos_c_22
    # c = np.cos(c) + np.sin(y)
    cos_c_23 = np.cos(c)
    sin_y_9 = np.sin(y)
    c_old_26 = c
    c = cos_c_23 + sin_y_9
    # c = np.sin(c) * np.cos(h)
    sin_c_17 = np.sin(c)
    cos_h_27 = np.cos(h)
    c_old_25 = c
    c = sin_c_17 * cos_h_27
    # if np.sum(x) > np.sum(y):
    sum_x_gt_sum_y = np.sum(x) > np.sum(y)
    if sum_x_gt_sum_y:
        # c = np.cos(c) + np.tanh(y)
        cos_c_24 = np.cos(c)
        tanh_y_10 = np.tanh(y)
        c_old_23 = c
        c = cos_c_24 + tanh_y_10
    else:
        # c = np.sin(c) * np.sin(h)
        sin_c_18 = np.sin(c)
        sin_h_24 = np.sin(h)
        c_old_24 = c
        c = sin_c_18 * sin_h_24
    # t35 = np.sin(c) + np.tanh(y)
    sin_c_19 = np.sin(c)
    tanh_y_11 = np.tanh(y)
    t35 = sin_c_19 + tanh_y_11
    # h = np.tanh(h) + np.tanh(y)
    tanh_h_19 = np.tanh(h)
    tanh_y_12 = np.tanh(y)
    h_old_31 = h
    h = tanh_h_19 + tanh_y_12
    # h = np.sin(h) * np.tanh(t35)
    sin_h_25 = np.sin(h)
    tanh_t35 = np.tanh(t35)
    h_old_30 = h
    h = sin_h_25 * tanh_t35
    # h = np.sin(h) * np.sin(c)
    sin_h_26 = np.sin(h)
    sin_c_20 = np.sin(c)
    h_old_29 = h
    h = sin_h_26 * sin_c_20
    t36 = np.tanh(y) - np.sin(c)
    t37 = np.tanh(x) * np.cos(t36)
    # if np.sum(t37) > np.sum(h):
    sum_t37_gt_sum_h = np.sum(t37) > np.sum(h)
    if sum_t37_gt_sum_h:
        # h = np.tanh(h) * np.sin(x)
        tanh_h_20 = np.tanh(h)
        sin_x_9 = np.sin(x)
        h_old_27 = h
        h = tanh_h_20 * sin_x_9
    else:
        # h = np.sin(h) - np.cos(x)
        sin_h_27 = np.sin(h)
        cos_x_9 = np.cos(x)
        h_old_28 = h
        h = sin_h_27 - cos_x_9
    # t38 = np.tanh(y) * np.cos(c)
    tanh_y_13 = np.tanh(y)
    cos_c_25 = np.cos(c)
    t38 = tanh_y_13 * cos_c_25
    # t39 = np.cos(y) - np.tanh(t38)
    cos_y_12 = np.cos(y)
    tanh_t38 = np.tanh(t38)
    t39 = cos_y_12 - tanh_t38
    # h = np.tanh(h) - np.cos(t39)
    tanh_h_21 = np.tanh(h)
    cos_t39 = np.cos(t39)
    h_old_26 = h
    h = tanh_h_21 - cos_t39
    t40 = np.cos(x) + np.cos(c)
    t41 = np.tanh(c) * np.tanh(c)
    # t42 = np.sin(x) + np.sin(h)
    sin_x_10 = np.sin(x)
    sin_h_28 = np.sin(h)
    t42 = sin_x_10 + sin_h_28
    # if np.sum(t40) > np.sum(t41):
    sum_t40_gt_sum_t41 = np.sum(t40) > np.sum(t41)
    if sum_t40_gt_sum_t41:
        # c = np.tanh(c) * np.cos(t42)
        tanh_c_20 = np.tanh(c)
        cos_t42 = np.cos(t42)
        c_old_21 = c
        c = tanh_c_20 * cos_t42
    else:
        # c = np.sin(c) - np.tanh(y)
        sin_c_21 = np.sin(c)
        tanh_y_14 = np.tanh(y)
        c_old_22 = c
        c = sin_c_21 - tanh_y_14
    # h = np.sin(h) + np.tanh(c)
    sin_h_29 = np.sin(h)
    tanh_c_21 = np.tanh(c)
    h_old_25 = h
    h = sin_h_29 + tanh_c_21
    t43 = np.tanh(h) * np.cos(y)
    t44 = np.sin(t43) + np.sin(x)
    # c = np.tanh(c) * np.sin(y)
    tanh_c_22 = np.tanh(c)
    sin_y_10 = np.sin(y)
    c_old_20 = c
    c = tanh_c_22 * sin_y_10
    t45 = np.cos(t44) * np.sin(c)
    t46 = np.sin(y) - np.cos(t45)
    # if np.sum(t46) > np.sum(c):
    sum_t46_gt_sum_c = np.sum(t46) > np.sum(c)
    if sum_t46_gt_sum_c:
        # c = np.sin(c) + np.tanh(h)
        sin_c_22 = np.sin(c)
        tanh_h_22 = np.tanh(h)
        c_old_18 = c
        c = sin_c_22 + tanh_h_22
    else:
        # c = np.tanh(c) * np.sin(h)
        tanh_c_23 = np.tanh(c)
        sin_h_30 = np.sin(h)
        c_old_19 = c
        c = tanh_c_23 * sin_h_30
    # c = np.cos(c) + np.sin(x)
    cos_c_26 = np.cos(c)
    sin_x_11 = np.sin(x)
    c_old_17 = c
    c = cos_c_26 + sin_x_11
    # c = np.tanh(c) - np.tanh(h)
    tanh_c_24 = np.tanh(c)
    tanh_h_23 = np.tanh(h)
    c_old_16 = c
    c = tanh_c_24 - tanh_h_23
    # h = np.cos(h) + np.cos(h)
    cos_h_28 = np.cos(h)
    cos_h_29 = np.cos(h)
    h_old_24 = h
    h = cos_h_28 + cos_h_29
    # h = np.sin(h) - np.tanh(c)
    sin_h_31 = np.sin(h)
    tanh_c_25 = np.tanh(c)
    h_old_23 = h
    h = sin_h_31 - tanh_c_25
    # h = np.tanh(h) - np.tanh(h)
    tanh_h_24 = np.tanh(h)
    tanh_h_25 = np.tanh(h)
    h_old_22 = h
    h = tanh_h_24 - tanh_h_25
    t47 = np.tanh(h) * np.cos(c)
    # if np.sum(t47) > np.sum(x):
    sum_t47_gt_sum_x = np.sum(t47) > np.sum(x)
    if sum_t47_gt_sum_x:
        # h = np.cos(h) + np.cos(x)
        cos_h_30 = np.cos(h)
        cos_x_10 = np.cos(x)
        h_old_20 = h
        h = cos_h_30 + cos_x_10
    else:
        # h = np.tanh(h) + np.sin(x)
        tanh_h_26 = np.tanh(h)
        sin_x_12 = np.sin(x)
        h_old_21 = h
        h = tanh_h_26 + sin_x_12
    # t48 = np.cos(x) * np.cos(x)
    cos_x_11 = np.cos(x)
    cos_x_12 = np.cos(x)
    t48 = cos_x_11 * cos_x_12
    # t49 = np.sin(t48) + np.cos(h)
    sin_t48 = np.sin(t48)
    cos_h_31 = np.cos(h)
    t49 = sin_t48 + cos_h_31
    # h = np.cos(h) * np.tanh(h)
    cos_h_32 = np.cos(h)
    tanh_h_27 = np.tanh(h)
    h_old_19 = h
    h = cos_h_32 * tanh_h_27
    # c = np.cos(c) - np.sin(t49)
    cos_c_27 = np.cos(c)
    sin_t49 = np.sin(t49)
    c_old_15 = c
    c = cos_c_27 - sin_t49
    # h = np.sin(h) * np.tanh(x)
    sin_h_32 = np.sin(h)
    tanh_x_9 = np.tanh(x)
    h_old_18 = h
    h = sin_h_32 * tanh_x_9
    # h = np.sin(h) + np.cos(c)
    sin_h_33 = np.sin(h)
    cos_c_28 = np.cos(c)
    h_old_17 = h
    h = sin_h_33 + cos_c_28
    # if np.sum(x) > np.sum(h):
    sum_x_gt_sum_h = np.sum(x) > np.sum(h)
    if sum_x_gt_sum_h:
        # h = np.tanh(h) + np.sin(c)
        tanh_h_28 = np.tanh(h)
        sin_c_23 = np.sin(c)
        h_old_15 = h
        h = tanh_h_28 + sin_c_23
    else:
        # h = np.tanh(h) + np.sin(h)
        tanh_h_29 = np.tanh(h)
        sin_h_34 = np.sin(h)
        h_old_16 = h
        h = tanh_h_29 + sin_h_34
    # t50 = np.tanh(h) - np.sin(c)
    tanh_h_30 = np.tanh(h)
    sin_c_24 = np.sin(c)
    t50 = tanh_h_30 - sin_c_24
    # t51 = np.cos(y) + np.sin(t50)
    cos_y_13 = np.cos(y)
    sin_t50 = np.sin(t50)
    t51 = cos_y_13 + sin_t50
    # c = np.sin(c) * np.cos(t51)
    sin_c_25 = np.sin(c)
    cos_t51 = np.cos(t51)
    c_old_14 = c
    c = sin_c_25 * cos_t51
    t52 = np.sin(y) - np.cos(c)
    # c = np.tanh(c) + np.tanh(y)
    tanh_c_26 = np.tanh(c)
    tanh_y_15 = np.tanh(y)
    c_old_13 = c
    c = tanh_c_26 + tanh_y_15
    t53 = np.cos(y) + np.cos(t52)
    # if np.sum(t53) > np.sum(h):
    sum_t53_gt_sum_h = np.sum(t53) > np.sum(h)
    if sum_t53_gt_sum_h:
        # h = np.cos(h) * np.cos(h)
        cos_h_33 = np.cos(h)
        cos_h_34 = np.cos(h)
        h_old_13 = h
        h = cos_h_33 * cos_h_34
    else:
        # h = np.cos(h) + np.tanh(y)
        cos_h_35 = np.cos(h)
        tanh_y_16 = np.tanh(y)
        h_old_14 = h
        h = cos_h_35 + tanh_y_16
    # c = np.sin(c) - np.cos(y)
    sin_c_26 = np.sin(c)
    cos_y_14 = np.cos(y)
    c_old_12 = c
    c = sin_c_26 - cos_y_14
    # t54 = np.tanh(y) + np.cos(c)
    tanh_y_17 = np.tanh(y)
    cos_c_29 = np.cos(c)
    t54 = tanh_y_17 + cos_c_29
    # c = np.cos(c) + np.sin(t54)
    cos_c_30 = np.cos(c)
    sin_t54 = np.sin(t54)
    c_old_11 = c
    c = cos_c_30 + sin_t54
    t55 = np.sin(y) - np.tanh(y)
    t56 = np.tanh(t55) - np.tanh(y)
    t57 = np.tanh(x) - np.sin(t56)
    # if np.sum(t57) > np.sum(y):
    sum_t57_gt_sum_y = np.sum(t57) > np.sum(y)
    if sum_t57_gt_sum_y:
        # h = np.tanh(h) * np.cos(c)
        tanh_h_31 = np.tanh(h)
        cos_c_31 = np.cos(c)
        h_old_11 = h
        h = tanh_h_31 * cos_c_31
    else:
        # h = np.cos(h) - np.cos(y)
        cos_h_36 = np.cos(h)
        cos_y_15 = np.cos(y)
        h_old_12 = h
        h = cos_h_36 - cos_y_15
    # t58 = np.tanh(x) - np.cos(h)
    tanh_x_10 = np.tanh(x)
    cos_h_37 = np.cos(h)
    t58 = tanh_x_10 - cos_h_37
    # t59 = np.sin(t58) + np.cos(h)
    sin_t58 = np.sin(t58)
    cos_h_38 = np.cos(h)
    t59 = sin_t58 + cos_h_38
    # c = np.tanh(c) - np.cos(t59)
    tanh_c_27 = np.tanh(c)
    cos_t59 = np.cos(t59)
    c_old_10 = c
    c = tanh_c_27 - cos_t59
    t60 = np.cos(y) * np.cos(c)
    t61 = np.sin(x) - np.tanh(t60)
    t62 = np.cos(t61) - np.cos(h)
    # if np.sum(t62) > np.sum(x):
    sum_t62_gt_sum_x = np.sum(t62) > np.sum(x)
    if sum_t62_gt_sum_x:
        # h = np.sin(h) - np.cos(x)
        sin_h_35 = np.sin(h)
        cos_x_13 = np.cos(x)
        h_old_9 = h
        h = sin_h_35 - cos_x_13
    else:
        # h = np.tanh(h) * np.cos(y)
        tanh_h_32 = np.tanh(h)
        cos_y_16 = np.cos(y)
        h_old_10 = h
        h = tanh_h_32 * cos_y_16
    # t63 = np.tanh(h) + np.sin(x)
    tanh_h_33 = np.tanh(h)
    t63 = tanh_h_33 + np.sin(x)
    # c = np.sin(c) + np.tanh(t63)
    sin_c_27 = np.sin(c)
    tanh_t63 = np.tanh(t63)
    c_old_9 = c
    c = sin_c_27 + tanh_t63
    # t64 = np.sin(c) * np.sin(y)
    sin_c_28 = np.sin(c)
    sin_y_11 = np.sin(y)
    t64 = sin_c_28 * sin_y_11
    # c = np.tanh(c) + np.sin(t64)
    tanh_c_28 = np.tanh(c)
    sin_t64 = np.sin(t64)
    c_old_8 = c
    c = tanh_c_28 + sin_t64
    # c = np.tanh(c) - np.tanh(c)
    tanh_c_29 = np.tanh(c)
    tanh_c_30 = np.tanh(c)
    c_old_7 = c
    c = tanh_c_29 - tanh_c_30
    # h = np.cos(h) * np.tanh(h)
    cos_h_39 = np.cos(h)
    tanh_h_34 = np.tanh(h)
    h_old_8 = h
    h = cos_h_39 * tanh_h_34
    # if np.sum(c) > np.sum(c):
    sum_c_gt_sum_c = np.sum(c) > np.sum(c)
    if sum_c_gt_sum_c:
        # h = np.sin(h) * np.cos(h)
        sin_h_36 = np.sin(h)
        cos_h_40 = np.cos(h)
        h_old_6 = h
        h = sin_h_36 * cos_h_40
    else:
        # h = np.tanh(h) + np.cos(c)
        tanh_h_35 = np.tanh(h)
        cos_c_32 = np.cos(c)
        h_old_7 = h
        h = tanh_h_35 + cos_c_32
    # h = np.sin(h) - np.cos(h)
    sin_h_37 = np.sin(h)
    cos_h_41 = np.cos(h)
    h_old_5 = h
    h = sin_h_37 - cos_h_41
    # c = np.cos(c) - np.sin(h)
    cos_c_33 = np.cos(c)
    sin_h_38 = np.sin(h)
    c_old_6 = c
    c = cos_c_33 - sin_h_38
    t65 = np.sin(c) - np.cos(h)
    # c = np.tanh(c) + np.cos(x)
    tanh_c_31 = np.tanh(c)
    cos_x_14 = np.cos(x)
    c_old_5 = c
    c = tanh_c_31 + cos_x_14
    t66 = np.tanh(t65) + np.cos(h)
    t67 = np.cos(t66) - np.sin(c)
    # if np.sum(t67) > np.sum(h):
    sum_t67_gt_sum_h = np.sum(t67) > np.sum(h)
    if sum_t67_gt_sum_h:
        # c = np.sin(c) + np.tanh(x)
        sin_c_29 = np.sin(c)
        tanh_x_11 = np.tanh(x)
        c_old_3 = c
        c = sin_c_29 + tanh_x_11
    else:
        # c = np.cos(c) * np.sin(h)
        cos_c_34 = np.cos(c)
        sin_h_39 = np.sin(h)
        c_old_4 = c
        c = cos_c_34 * sin_h_39
    # h = np.sin(h) - np.cos(h)
    sin_h_40 = np.sin(h)
    cos_h_42 = np.cos(h)
    h_old_4 = h
    h = sin_h_40 - cos_h_42
    # h = np.tanh(h) * np.cos(c)
    tanh_h_36 = np.tanh(h)
    cos_c_35 = np.cos(c)
    h_old_3 = h
    h = tanh_h_36 * cos_c_35
    # c = np.sin(c) - np.cos(c)
    sin_c_30 = np.sin(c)
    cos_c_36 = np.cos(c)
    c_old_2 = c
    c = sin_c_30 - cos_c_36
    # h = np.tanh(h) + np.cos(h)
    tanh_h_37 = np.tanh(h)
    cos_h_43 = np.cos(h)
    h_old_2 = h
    h = tanh_h_37 + cos_h_43
    # c = np.tanh(c) + np.tanh(h)
    tanh_c_32 = np.tanh(c)
    tanh_h_38 = np.tanh(h)
    c_old = c
    c = tanh_c_32 + tanh_h_38
    # h = np.sin(h) + np.cos(y)
    sin_h_41 = np.sin(h)
    cos_y_17 = np.cos(y)
    h_old = h
    h = sin_h_41 + cos_y_17
    # return np.sum(h * c)
    h_times_c = shape_of_elementwise(h, c)
    # the backward sweep reads only the shapes of these: let their elements go
    cos_c_13 = shape_only(cos_c_13)
    cos_c_20 = shape_only(cos_c_20)
    cos_c_21 = shape_only(cos_c_21)
    cos_c_22 = shape_only(cos_c_22)
    cos_c_23 = shape_only(cos_c_23)
    cos_c_26 = shape_only(cos_c_26)
    cos_c_27 = shape_only(cos_c_27)
    cos_c_28 = shape_only(cos_c_28)
    cos_c_29 = shape_only(cos_c_29)
    cos_c_30 = shape_only(cos_c_30)
    cos_c_33 = shape_only(cos_c_33)
    cos_c_36 = shape_only(cos_c_36)
    cos_c_7 = shape_only(cos_c_7)
    cos_c_8 = shape_only(cos_c_8)
    cos_c_9 = shape_only(cos_c_9)
    cos_h = shape_only(cos_h)
    cos_h_10 = shape_only(cos_h_10)
    cos_h_17 = shape_only(cos_h_17)
    cos_h_19 = shape_only(cos_h_19)
    cos_h_21 = shape_only(cos_h_21)
    cos_h_23 = shape_only(cos_h_23)
    cos_h_24 = shape_only(cos_h_24)
    cos_h_28 = shape_only(cos_h_28)
    cos_h_29 = shape_only(cos_h_29)
    cos_h_31 = shape_only(cos_h_31)
    cos_h_37 = shape_only(cos_h_37)
    cos_h_38 = shape_only(cos_h_38)
    cos_h_4 = shape_only(cos_h_4)
    cos_h_41 = shape_only(cos_h_41)
    cos_h_42 = shape_only(cos_h_42)
    cos_h_43 = shape_only(cos_h_43)
    cos_h_5 = shape_only(cos_h_5)
    cos_t16 = shape_only(cos_t16)
    cos_t20 = shape_only(cos_t20)
    cos_t3 = shape_only(cos_t3)
    cos_t39 = shape_only(cos_t39)
    cos_t59 = shape_only(cos_t59)
    sin_c = shape_only(sin_c)
    sin_c_10 = shape_only(sin_c_10)
    sin_c_11 = shape_only(sin_c_11)
    sin_c_12 = shape_only(sin_c_12)
    sin_c_14 = shape_only(sin_c_14)
    sin_c_15 = shape_only(sin_c_15)
    sin_c_19 = shape_only(sin_c_19)
    sin_c_24 = shape_only(sin_c_24)
    sin_c_26 = shape_only(sin_c_26)
    sin_c_27 = shape_only(sin_c_27)
    sin_c_30 = shape_only(sin_c_30)
    sin_c_5 = shape_only(sin_c_5)
    sin_c_6 = shape_only(sin_c_6)
    sin_c_7 = shape_only(sin_c_7)
    sin_c_8 = shape_only(sin_c_8)
    sin_h = shape_only(sin_h)
    sin_h_10 = shape_only(sin_h_10)
    sin_h_11 = shape_only(sin_h_11)
    sin_h_13 = shape_only(sin_h_13)
    sin_h_14 = shape_only(sin_h_14)
    sin_h_15 = shape_only(sin_h_15)
    sin_h_17 = shape_only(sin_h_17)
    sin_h_18 = shape_only(sin_h_18)
    sin_h_19 = shape_only(sin_h_19)
    sin_h_2 = shape_only(sin_h_2)
    sin_h_28 = shape_only(sin_h_28)
    sin_h_29 = shape_only(sin_h_29)
    sin_h_31 = shape_only(sin_h_31)
    sin_h_33 = shape_only(sin_h_33)
    sin_h_37 = shape_only(sin_h_37)
    sin_h_38 = shape_only(sin_h_38)
    sin_h_4 = shape_only(sin_h_4)
    sin_h_40 = shape_only(sin_h_40)
    sin_h_41 = shape_only(sin_h_41)
    sin_h_5 = shape_only(sin_h_5)
    sin_h_8 = shape_only(sin_h_8)
    sin_t11 = shape_only(sin_t11)
    sin_t17 = shape_only(sin_t17)
    sin_t29 = shape_only(sin_t29)
    sin_t30 = shape_only(sin_t30)
    sin_t32 = shape_only(sin_t32)
    sin_t49 = shape_only(sin_t49)
    sin_t50 = shape_only(sin_t50)
    sin_t54 = shape_only(sin_t54)
    sin_t58 = shape_only(sin_t58)
    sin_t64 = shape_only(sin_t64)
    grad_f_value = 1.0
    # return np.sum(h * c)
    grad_h_times_c = unreduce(grad_f_value, h_times_c)
    grad_h = unbroadcast(grad_h_times_c * c, h)
    grad_c = unbroadcast(grad_h_times_c * h, c)
    # h = np.sin(h) + np.cos(y)
    h = h_old
    del h_old
    grad_cos_y_17 = unbroadcast(grad_h, y)
    grad_y = -grad_cos_y_17 * np.sin(y)
    del grad_cos_y_17
    grad_sin_h_41 = unbroadcast(grad_h, sin_h_41)
    grad_h = grad_sin_h_41 * np.cos(h)
    del grad_sin_h_41
    # c = np.tanh(c) + np.tanh(h)
    c = c_old
    del c_old
    grad_tanh_h_38 = unbroadcast(grad_c, tanh_h_38)
    grad_h = add_into(grad_h, grad_tanh_h_38 * (1 - tanh_h_38 ** 2))
    del grad_tanh_h_38, tanh_h_38
    grad_tanh_c_32 = unbroadcast(grad_c, tanh_c_32)
    grad_c = grad_tanh_c_32 * (1 - tanh_c_32 ** 2)
    del grad_tanh_c_32, tanh_c_32
    # h = np.tanh(h) + np.cos(h)
    grad_tanh_h_37 = unbroadcast(grad_h, tanh_h_37)
    h = h_old_2
    del h_old_2
    grad_cos_h_43 = unbroadcast(grad_h, cos_h_43)
    grad_h = -grad_cos_h_43 * np.sin(h)
    del grad_cos_h_43
    grad_h = add_into(grad_h, grad_tanh_h_37 * (1 - tanh_h_37 ** 2))
    del grad_tanh_h_37, tanh_h_37
    # c = np.sin(c) - np.cos(c)
    grad_sin_c_30 = unbroadcast(grad_c, sin_c_30)
    c = c_old_2
    del c_old_2
    grad_cos_c_36 = unbroadcast(-grad_c, cos_c_36)
    grad_c = -grad_cos_c_36 * np.sin(c)
    del grad_cos_c_36
    grad_c = add_into(grad_c, grad_sin_c_30 * np.cos(c))
    del grad_sin_c_30
    # h = np.tanh(h) * np.cos(c)
    grad_tanh_h_36 = unbroadcast(grad_h * cos_c_35, tanh_h_36)
    grad_cos_c_35 = unbroadcast(grad_h * tanh_h_36, cos_c_35)
    del cos_c_35
    h = h_old_3
    del h_old_3
    grad_c = add_into(grad_c, -grad_cos_c_35 * np.sin(c))
    del grad_cos_c_35
    grad_h = grad_tanh_h_36 * (1 - tanh_h_36 ** 2)
    del grad_tanh_h_36, tanh_h_36
    # h = np.sin(h) - np.cos(h)
    grad_sin_h_40 = unbroadcast(grad_h, sin_h_40)
    h = h_old_4
    del h_old_4
    grad_cos_h_42 = unbroadcast(-grad_h, cos_h_42)
    grad_h = -grad_cos_h_42 * np.sin(h)
    del grad_cos_h_42
    grad_h = add_into(grad_h, grad_sin_h_40 * np.cos(h))
    del grad_sin_h_40
    # if np.sum(t67) > np.sum(h):
    if sum_t67_gt_sum_h:
        # c = np.sin(c) + np.tanh(x)
        grad_sin_c_29 = unbroadcast(grad_c, sin_c_29)
        c = c_old_3
        grad_tanh_x_11 = unbroadcast(grad_c, x)
        grad_x = grad_tanh_x_11 * (1 - tanh_x_11 ** 2)
        grad_c = grad_sin_c_29 * np.cos(c)
    else:
        # c = np.cos(c) * np.sin(h)
        grad_cos_c_34 = unbroadcast(grad_c * sin_h_39, cos_c_34)
        grad_sin_h_39 = unbroadcast(grad_c * cos_c_34, sin_h_39)
        c = c_old_4
        grad_h = add_into(grad_h, grad_sin_h_39 * np.cos(h))
        grad_c = -grad_cos_c_34 * np.sin(c)
        grad_x = zeros_like_grad(x)
    # c = np.tanh(c) + np.cos(x)
    c = c_old_5
    del c_old_5
    grad_cos_x_14 = unbroadcast(grad_c, x)
    grad_x = add_into(grad_x, -grad_cos_x_14 * np.sin(x))
    del grad_cos_x_14
    grad_tanh_c_31 = unbroadcast(grad_c, tanh_c_31)
    grad_c = grad_tanh_c_31 * (1 - tanh_c_31 ** 2)
    del grad_tanh_c_31, tanh_c_31
    # c = np.cos(c) - np.sin(h)
    c = c_old_6
    del c_old_6
    grad_sin_h_38 = unbroadcast(-grad_c, sin_h_38)
    grad_h = add_into(grad_h, grad_sin_h_38 * np.cos(h))
    del grad_sin_h_38
    grad_cos_c_33 = unbroadcast(grad_c, cos_c_33)
    grad_c = -grad_cos_c_33 * np.sin(c)
    del grad_cos_c_33
    # h = np.sin(h) - np.cos(h)
    grad_sin_h_37 = unbroadcast(grad_h, sin_h_37)
    h = h_old_5
    del h_old_5
    grad_cos_h_41 = unbroadcast(-grad_h, cos_h_41)
    grad_h = -grad_cos_h_41 * np.sin(h)
    del grad_cos_h_41
    grad_h = add_into(grad_h, grad_sin_h_37 * np.cos(h))
    del grad_sin_h_37
    # if np.sum(c) > np.sum(c):
    if sum_c_gt_sum_c:
        # h = np.sin(h) * np.cos(h)
        grad_sin_h_36 = unbroadcast(grad_h * cos_h_40, sin_h_36)
        grad_cos_h_40 = unbroadcast(grad_h * sin_h_36, cos_h_40)
        h = h_old_6
        grad_h = -grad_cos_h_40 * np.sin(h)
        grad_h = add_into(grad_h, grad_sin_h_36 * np.cos(h))
    else:
        # h = np.tanh(h) + np.cos(c)
        grad_cos_c_32 = unbroadcast(grad_h, cos_c_32)
        h = h_old_7
        grad_c = add_into(grad_c, -grad_cos_c_32 * np.sin(c))
        grad_tanh_h_35 = unbroadcast(grad_h, tanh_h_35)
        grad_h = grad_tanh_h_35 * (1 - tanh_h_35 ** 2)
    # h = np.cos(h) * np.tanh(h)
    grad_cos_h_39 = unbroadcast(grad_h * tanh_h_34, cos_h_39)
    grad_tanh_h_34 = unbroadcast(grad_h * cos_h_39, tanh_h_34)
    del cos_h_39
    h = h_old_8
    del h_old_8
    grad_h = grad_tanh_h_34 * (1 - tanh_h_34 ** 2)
    del grad_tanh_h_34, tanh_h_34
    grad_h = add_into(grad_h, -grad_cos_h_39 * np.sin(h))
    del grad_cos_h_39
    # c = np.tanh(c) - np.tanh(c)
    grad_tanh_c_29 = unbroadcast(grad_c, tanh_c_29)
    c = c_old_7
    del c_old_7
    grad_tanh_c_30 = unbroadcast(-grad_c, tanh_c_30)
    grad_c = grad_tanh_c_30 * (1 - tanh_c_30 ** 2)
    del grad_tanh_c_30, tanh_c_30
    grad_c = add_into(grad_c, grad_tanh_c_29 * (1 - tanh_c_29 ** 2))
    del grad_tanh_c_29, tanh_c_29
    # c = np.tanh(c) + np.sin(t64)
    c = c_old_8
    del c_old_8
    grad_sin_t64 = unbroadcast(grad_c, sin_t64)
    grad_t64 = grad_sin_t64 * np.cos(t64)
    del grad_sin_t64, t64
    grad_tanh_c_28 = unbroadcast(grad_c, tanh_c_28)
    grad_c = grad_tanh_c_28 * (1 - tanh_c_28 ** 2)
    del grad_tanh_c_28, tanh_c_28
    # t64 = np.sin(c) * np.sin(y)
    grad_sin_c_28 = unbroadcast(grad_t64 * sin_y_11, sin_c_28)
    del sin_y_11
    grad_sin_y_11 = unbroadcast(grad_t64 * sin_c_28, y)
    del grad_t64, sin_c_28
    grad_y = add_into(grad_y, grad_sin_y_11 * np.cos(y))
    del grad_sin_y_11
    grad_c = add_into(grad_c, grad_sin_c_28 * np.cos(c))
    del grad_sin_c_28
    # c = np.sin(c) + np.tanh(t63)
    c = c_old_9
    del c_old_9
    grad_tanh_t63 = unbroadcast(grad_c, tanh_t63)
    grad_t63 = grad_tanh_t63 * (1 - tanh_t63 ** 2)
    del grad_tanh_t63, tanh_t63
    grad_sin_c_27 = unbroadcast(grad_c, sin_c_27)
    grad_c = grad_sin_c_27 * np.cos(c)
    del grad_sin_c_27
    # t63 = np.tanh(h) + np.sin(x)
    grad_tanh_h_33 = unbroadcast(grad_t63, tanh_h_33)
    grad_sin_x_13 = unbroadcast(grad_t63, x)
    del grad_t63
    grad_x = add_into(grad_x, grad_sin_x_13 * np.cos(x))
    del grad_sin_x_13
    grad_h = add_into(grad_h, grad_tanh_h_33 * (1 - tanh_h_33 ** 2))
    del grad_tanh_h_33, tanh_h_33
    # if np.sum(t62) > np.sum(x):
    if sum_t62_gt_sum_x:
        # h = np.sin(h) - np.cos(x)
        grad_sin_h_35 = unbroadcast(grad_h, sin_h_35)
        h = h_old_9
        grad_cos_x_13 = unbroadcast(-grad_h, x)
        grad_x = add_into(grad_x, -grad_cos_x_13 * np.sin(x))
        grad_h = grad_sin_h_35 * np.cos(h)
    else:
        # h = np.tanh(h) * np.cos(y)
        grad_tanh_h_32 = unbroadcast(grad_h * cos_y_16, tanh_h_32)
        h = h_old_10
        grad_cos_y_16 = unbroadcast(grad_h * tanh_h_32, y)
        grad_y = add_into(grad_y, -grad_cos_y_16 * np.sin(y))
        grad_h = grad_tanh_h_32 * (1 - tanh_h_32 ** 2)
    # c = np.tanh(c) - np.cos(t59)
    c = c_old_10
    del c_old_10
    grad_cos_t59 = unbroadcast(-grad_c, cos_t59)
    grad_t59 = -grad_cos_t59 * np.sin(t59)
    del grad_cos_t59, t59
    grad_tanh_c_27 = unbroadcast(grad_c, tanh_c_27)
    grad_c = grad_tanh_c_27 * (1 - tanh_c_27 ** 2)
    del grad_tanh_c_27, tanh_c_27
    # t59 = np.sin(t58) + np.cos(h)
    grad_sin_t58 = unbroadcast(grad_t59, sin_t58)
    grad_cos_h_38 = unbroadcast(grad_t59, cos_h_38)
    del grad_t59
    grad_h = add_into(grad_h, -grad_cos_h_38 * np.sin(h))
    del grad_cos_h_38
    grad_t58 = grad_sin_t58 * np.cos(t58)
    del grad_sin_t58, t58
    # t58 = np.tanh(x) - np.cos(h)
    grad_tanh_x_10 = unbroadcast(grad_t58, x)
    grad_cos_h_37 = unbroadcast(-grad_t58, cos_h_37)
    del grad_t58
    grad_h = add_into(grad_h, -grad_cos_h_37 * np.sin(h))
    del grad_cos_h_37
    grad_x = add_into(grad_x, grad_tanh_x_10 * (1 - tanh_x_10 ** 2))
    del grad_tanh_x_10, tanh_x_10
    # if np.sum(t57) > np.sum(y):
    if sum_t57_gt_sum_y:
        # h = np.tanh(h) * np.cos(c)
        grad_tanh_h_31 = unbroadcast(grad_h * cos_c_31, tanh_h_31)
        grad_cos_c_31 = unbroadcast(grad_h * tanh_h_31, cos_c_31)
        h = h_old_11
        grad_c = add_into(grad_c, -grad_cos_c_31 * np.sin(c))
        grad_h = grad_tanh_h_31 * (1 - tanh_h_31 ** 2)
    else:
        # h = np.cos(h) - np.cos(y)
        grad_cos_h_36 = unbroadcast(grad_h, cos_h_36)
        h = h_old_12
        grad_cos_y_15 = unbroadcast(-grad_h, y)
        grad_y = add_into(grad_y, -grad_cos_y_15 * np.sin(y))
        grad_h = -grad_cos_h_36 * np.sin(h)
    # c = np.cos(c) + np.sin(t54)
    c = c_old_11
    del c_old_11
    grad_sin_t54 = unbroadcast(grad_c, sin_t54)
    grad_t54 = grad_sin_t54 * np.cos(t54)
    del grad_sin_t54, t54
    grad_cos_c_30 = unbroadcast(grad_c, cos_c_30)
    grad_c = -grad_cos_c_30 * np.sin(c)
    del grad_cos_c_30
    # t54 = np.tanh(y) + np.cos(c)
    grad_tanh_y_17 = unbroadcast(grad_t54, y)
    grad_cos_c_29 = unbroadcast(grad_t54, cos_c_29)
    del grad_t54
    grad_c = add_into(grad_c, -grad_cos_c_29 * np.sin(c))
    del grad_cos_c_29
    grad_y = add_into(grad_y, grad_tanh_y_17 * (1 - tanh_y_17 ** 2))
    del grad_tanh_y_17, tanh_y_17
    # c = np.sin(c) - np.cos(y)
    c = c_old_12
    del c_old_12
    grad_cos_y_14 = unbroadcast(-grad_c, y)
    grad_y = add_into(grad_y, -grad_cos_y_14 * np.sin(y))
    del grad_cos_y_14
    grad_sin_c_26 = unbroadcast(grad_c, sin_c_26)
    grad_c = grad_sin_c_26 * np.cos(c)
    del grad_sin_c_26
    # if np.sum(t53) > np.sum(h):
    if sum_t53_gt_sum_h:
        # h = np.cos(h) * np.cos(h)
        grad_cos_h_33 = unbroadcast(grad_h * cos_h_34, cos_h_33)
        grad_cos_h_34 = unbroadcast(grad_h * cos_h_33, cos_h_34)
        h = h_old_13
        grad_h = -grad_cos_h_34 * np.sin(h)
        grad_h = add_into(grad_h, -grad_cos_h_33 * np.sin(h))
    else:
        # h = np.cos(h) + np.tanh(y)
        grad_cos_h_35 = unbroadcast(grad_h, cos_h_35)
        h = h_old_14
        grad_tanh_y_16 = unbroadcast(grad_h, y)
        grad_y = add_into(grad_y, grad_tanh_y_16 * (1 - tanh_y_16 ** 2))
        grad_h = -grad_cos_h_35 * np.sin(h)
    # c = np.tanh(c) + np.tanh(y)
    c = c_old_13
    del c_old_13
    grad_tanh_y_15 = unbroadcast(grad_c, y)
    grad_y = add_into(grad_y, grad_tanh_y_15 * (1 - tanh_y_15 ** 2))
    del grad_tanh_y_15, tanh_y_15
    grad_tanh_c_26 = unbroadcast(grad_c, tanh_c_26)
    grad_c = grad_tanh_c_26 * (1 - tanh_c_26 ** 2)
    del grad_tanh_c_26, tanh_c_26
    # c = np.sin(c) * np.cos(t51)
    grad_sin_c_25 = unbroadcast(grad_c * cos_t51, sin_c_25)
    grad_cos_t51 = unbroadcast(grad_c * sin_c_25, cos_t51)
    del cos_t51, sin_c_25
    c = c_old_14
    del c_old_14
    grad_t51 = -grad_cos_t51 * np.sin(t51)
    del grad_cos_t51, t51
    grad_c = grad_sin_c_25 * np.cos(c)
    del grad_sin_c_25
    # t51 = np.cos(y) + np.sin(t50)
    grad_cos_y_13 = unbroadcast(grad_t51, y)
    grad_sin_t50 = unbroadcast(grad_t51, sin_t50)
    del grad_t51
    grad_t50 = grad_sin_t50 * np.cos(t50)
    del grad_sin_t50, t50
    grad_y = add_into(grad_y, -grad_cos_y_13 * np.sin(y))
    del grad_cos_y_13
    # t50 = np.tanh(h) - np.sin(c)
    grad_tanh_h_30 = unbroadcast(grad_t50, tanh_h_30)
    grad_sin_c_24 = unbroadcast(-grad_t50, sin_c_24)
    del grad_t50
    grad_c = add_into(grad_c, grad_sin_c_24 * np.cos(c))
    del grad_sin_c_24
    grad_h = add_into(grad_h, grad_tanh_h_30 * (1 - tanh_h_30 ** 2))
    del grad_tanh_h_30, tanh_h_30
    # if np.sum(x) > np.sum(h):
    if sum_x_gt_sum_h:
        # h = np.tanh(h) + np.sin(c)
        grad_sin_c_23 = unbroadcast(grad_h, sin_c_23)
        h = h_old_15
        grad_c = add_into(grad_c, grad_sin_c_23 * np.cos(c))
        grad_tanh_h_28 = unbroadcast(grad_h, tanh_h_28)
        grad_h = grad_tanh_h_28 * (1 - tanh_h_28 ** 2)
    else:
        # h = np.tanh(h) + np.sin(h)
        grad_tanh_h_29 = unbroadcast(grad_h, tanh_h_29)
        grad_sin_h_34 = unbroadcast(grad_h, sin_h_34)
        h = h_old_16
        grad_h = grad_sin_h_34 * np.cos(h)
        grad_h = add_into(grad_h, grad_tanh_h_29 * (1 - tanh_h_29 ** 2))
    # h = np.sin(h) + np.cos(c)
    h = h_old_17
    del h_old_17
    grad_cos_c_28 = unbroadcast(grad_h, cos_c_28)
    grad_c = add_into(grad_c, -grad_cos_c_28 * np.sin(c))
    del grad_cos_c_28
    grad_sin_h_33 = unbroadcast(grad_h, sin_h_33)
    grad_h = grad_sin_h_33 * np.cos(h)
    del grad_sin_h_33
    # h = np.sin(h) * np.tanh(x)
    grad_sin_h_32 = unbroadcast(grad_h * tanh_x_9, sin_h_32)
    grad_tanh_x_9 = unbroadcast(grad_h * sin_h_32, x)
    del sin_h_32
    h = h_old_18
    del h_old_18
    grad_x = add_into(grad_x, grad_tanh_x_9 * (1 - tanh_x_9 ** 2))
    del grad_tanh_x_9, tanh_x_9
    grad_h = grad_sin_h_32 * np.cos(h)
    del grad_sin_h_32
    # c = np.cos(c) - np.sin(t49)
    c = c_old_15
    del c_old_15
    grad_sin_t49 = unbroadcast(-grad_c, sin_t49)
    grad_t49 = grad_sin_t49 * np.cos(t49)
    del grad_sin_t49, t49
    grad_cos_c_27 = unbroadcast(grad_c, cos_c_27)
    grad_c = -grad_cos_c_27 * np.sin(c)
    del grad_cos_c_27
    # h = np.cos(h) * np.tanh(h)
    grad_cos_h_32 = unbroadcast(grad_h * tanh_h_27, cos_h_32)
    grad_tanh_h_27 = unbroadcast(grad_h * cos_h_32, tanh_h_27)
    del cos_h_32
    h = h_old_19
    del h_old_19
    grad_h = grad_tanh_h_27 * (1 - tanh_h_27 ** 2)
    del grad_tanh_h_27, tanh_h_27
    grad_h = add_into(grad_h, -grad_cos_h_32 * np.sin(h))
    del grad_cos_h_32
    # t49 = np.sin(t48) + np.cos(h)
    grad_sin_t48 = unbroadcast(grad_t49, x)
    grad_cos_h_31 = unbroadcast(grad_t49, cos_h_31)
    del grad_t49
    grad_h = add_into(grad_h, -grad_cos_h_31 * np.sin(h))
    del grad_cos_h_31
    grad_t48 = grad_sin_t48 * np.cos(t48)
    del grad_sin_t48, t48
    # t48 = np.cos(x) * np.cos(x)
    grad_cos_x_11 = grad_t48 * cos_x_12
    del cos_x_12
    grad_cos_x_12 = grad_t48 * cos_x_11
    del cos_x_11, grad_t48
    grad_x = add_into(grad_x, -grad_cos_x_12 * np.sin(x))
    del grad_cos_x_12
    grad_x = add_into(grad_x, -grad_cos_x_11 * np.sin(x))
    del grad_cos_x_11
    # if np.sum(t47) > np.sum(x):
    if sum_t47_gt_sum_x:
        # h = np.cos(h) + np.cos(x)
        grad_cos_h_30 = unbroadcast(grad_h, cos_h_30)
        h = h_old_20
        grad_cos_x_10 = unbroadcast(grad_h, x)
        grad_x = add_into(grad_x, -grad_cos_x_10 * np.sin(x))
        grad_h = -grad_cos_h_30 * np.sin(h)
    else:
        # h = np.tanh(h) + np.sin(x)
        h = h_old_21
        grad_sin_x_12 = unbroadcast(grad_h, x)
        grad_x = add_into(grad_x, grad_sin_x_12 * np.cos(x))
        grad_tanh_h_26 = unbroadcast(grad_h, tanh_h_26)
        grad_h = grad_tanh_h_26 * (1 - tanh_h_26 ** 2)
    # h = np.tanh(h) - np.tanh(h)
    grad_tanh_h_24 = unbroadcast(grad_h, tanh_h_24)
    h = h_old_22
    del h_old_22
    grad_tanh_h_25 = unbroadcast(-grad_h, tanh_h_25)
    grad_h = grad_tanh_h_25 * (1 - tanh_h_25 ** 2)
    del grad_tanh_h_25, tanh_h_25
    grad_h = add_into(grad_h, grad_tanh_h_24 * (1 - tanh_h_24 ** 2))
    del grad_tanh_h_24, tanh_h_24
    # h = np.sin(h) - np.tanh(c)
    h = h_old_23
    del h_old_23
    grad_tanh_c_25 = unbroadcast(-grad_h, tanh_c_25)
    grad_c = add_into(grad_c, grad_tanh_c_25 * (1 - tanh_c_25 ** 2))
    del grad_tanh_c_25, tanh_c_25
    grad_sin_h_31 = unbroadcast(grad_h, sin_h_31)
    grad_h = grad_sin_h_31 * np.cos(h)
    del grad_sin_h_31
    # h = np.cos(h) + np.cos(h)
    grad_cos_h_28 = unbroadcast(grad_h, cos_h_28)
    h = h_old_24
    del h_old_24
    grad_cos_h_29 = unbroadcast(grad_h, cos_h_29)
    grad_h = -grad_cos_h_29 * np.sin(h)
    del grad_cos_h_29
    grad_h = add_into(grad_h, -grad_cos_h_28 * np.sin(h))
    del grad_cos_h_28
    # c = np.tanh(c) - np.tanh(h)
    c = c_old_16
    del c_old_16
    grad_tanh_h_23 = unbroadcast(-grad_c, tanh_h_23)
    grad_h = add_into(grad_h, grad_tanh_h_23 * (1 - tanh_h_23 ** 2))
    del grad_tanh_h_23, tanh_h_23
    grad_tanh_c_24 = unbroadcast(grad_c, tanh_c_24)
    grad_c = grad_tanh_c_24 * (1 - tanh_c_24 ** 2)
    del grad_tanh_c_24, tanh_c_24
    # c = np.cos(c) + np.sin(x)
    c = c_old_17
    del c_old_17
    grad_sin_x_11 = unbroadcast(grad_c, x)
    grad_x = add_into(grad_x, grad_sin_x_11 * np.cos(x))
    del grad_sin_x_11
    grad_cos_c_26 = unbroadcast(grad_c, cos_c_26)
    grad_c = -grad_cos_c_26 * np.sin(c)
    del grad_cos_c_26
    # if np.sum(t46) > np.sum(c):
    if sum_t46_gt_sum_c:
        # c = np.sin(c) + np.tanh(h)
        grad_sin_c_22 = unbroadcast(grad_c, sin_c_22)
        c = c_old_18
        grad_tanh_h_22 = unbroadcast(grad_c, tanh_h_22)
        grad_h = add_into(grad_h, grad_tanh_h_22 * (1 - tanh_h_22 ** 2))
        grad_c = grad_sin_c_22 * np.cos(c)
    else:
        # c = np.tanh(c) * np.sin(h)
        grad_tanh_c_23 = unbroadcast(grad_c * sin_h_30, tanh_c_23)
        grad_sin_h_30 = unbroadcast(grad_c * tanh_c_23, sin_h_30)
        c = c_old_19
        grad_h = add_into(grad_h, grad_sin_h_30 * np.cos(h))
        grad_c = grad_tanh_c_23 * (1 - tanh_c_23 ** 2)
    # c = np.tanh(c) * np.sin(y)
    grad_tanh_c_22 = unbroadcast(grad_c * sin_y_10, tanh_c_22)
    del sin_y_10
    c = c_old_20
    del c_old_20
    grad_sin_y_10 = unbroadcast(grad_c * tanh_c_22, y)
    grad_y = add_into(grad_y, grad_sin_y_10 * np.cos(y))
    del grad_sin_y_10
    grad_c = grad_tanh_c_22 * (1 - tanh_c_22 ** 2)
    del grad_tanh_c_22, tanh_c_22
    # h = np.sin(h) + np.tanh(c)
    h = h_old_25
    del h_old_25
    grad_tanh_c_21 = unbroadcast(grad_h, tanh_c_21)
    grad_c = add_into(grad_c, grad_tanh_c_21 * (1 - tanh_c_21 ** 2))
    del grad_tanh_c_21, tanh_c_21
    grad_sin_h_29 = unbroadcast(grad_h, sin_h_29)
    grad_h = grad_sin_h_29 * np.cos(h)
    del grad_sin_h_29
    # if np.sum(t40) > np.sum(t41):
    if sum_t40_gt_sum_t41:
        # c = np.tanh(c) * np.cos(t42)
        grad_tanh_c_20 = unbroadcast(grad_c * cos_t42, tanh_c_20)
        grad_cos_t42 = unbroadcast(grad_c * tanh_c_20, cos_t42)
        c = c_old_21
        grad_t42 = -grad_cos_t42 * np.sin(t42)
        grad_c = grad_tanh_c_20 * (1 - tanh_c_20 ** 2)
    else:
        # c = np.sin(c) - np.tanh(y)
        grad_sin_c_21 = unbroadcast(grad_c, sin_c_21)
        c = c_old_22
        grad_tanh_y_14 = unbroadcast(-grad_c, y)
        grad_y = add_into(grad_y, grad_tanh_y_14 * (1 - tanh_y_14 ** 2))
        grad_c = grad_sin_c_21 * np.cos(c)
        grad_t42 = zeros_like_grad(t42)
    del t42
    # t42 = np.sin(x) + np.sin(h)
    grad_sin_x_10 = unbroadcast(grad_t42, x)
    grad_sin_h_28 = unbroadcast(grad_t42, sin_h_28)
    grad_h = add_into(grad_h, grad_sin_h_28 * np.cos(h))
    del grad_sin_h_28
    grad_x = add_into(grad_x, grad_sin_x_10 * np.cos(x))
    del grad_sin_x_10
    # h = np.tanh(h) - np.cos(t39)
    h = h_old_26
    del h_old_26
    grad_cos_t39 = unbroadcast(-grad_h, cos_t39)
    grad_t39 = -grad_cos_t39 * np.sin(t39)
    del grad_cos_t39, t39
    grad_tanh_h_21 = unbroadcast(grad_h, tanh_h_21)
    grad_h = grad_tanh_h_21 * (1 - tanh_h_21 ** 2)
    del grad_tanh_h_21, tanh_h_21
    # t39 = np.cos(y) - np.tanh(t38)
    grad_cos_y_12 = unbroadcast(grad_t39, y)
    grad_tanh_t38 = unbroadcast(-grad_t39, tanh_t38)
    del grad_t39
    grad_t38 = grad_tanh_t38 * (1 - tanh_t38 ** 2)
    del grad_tanh_t38, tanh_t38
    grad_y = add_into(grad_y, -grad_cos_y_12 * np.sin(y))
    del grad_cos_y_12
    # t38 = np.tanh(y) * np.cos(c)
    grad_tanh_y_13 = unbroadcast(grad_t38 * cos_c_25, y)
    grad_cos_c_25 = unbroadcast(grad_t38 * tanh_y_13, cos_c_25)
    del cos_c_25, grad_t38
    grad_c = add_into(grad_c, -grad_cos_c_25 * np.sin(c))
    del grad_cos_c_25
    grad_y = add_into(grad_y, grad_tanh_y_13 * (1 - tanh_y_13 ** 2))
    del grad_tanh_y_13, tanh_y_13
    # if np.sum(t37) > np.sum(h):
    if sum_t37_gt_sum_h:
        # h = np.tanh(h) * np.sin(x)
        grad_tanh_h_20 = unbroadcast(grad_h * sin_x_9, tanh_h_20)
        h = h_old_27
        grad_sin_x_9 = unbroadcast(grad_h * tanh_h_20, x)
        grad_x = add_into(grad_x, grad_sin_x_9 * np.cos(x))
        grad_h = grad_tanh_h_20 * (1 - tanh_h_20 ** 2)
    else:
        # h = np.sin(h) - np.cos(x)
        grad_sin_h_27 = unbroadcast(grad_h, sin_h_27)
        h = h_old_28
        grad_cos_x_9 = unbroadcast(-grad_h, x)
        grad_x = add_into(grad_x, -grad_cos_x_9 * np.sin(x))
        grad_h = grad_sin_h_27 * np.cos(h)
    # h = np.sin(h) * np.sin(c)
    grad_sin_h_26 = unbroadcast(grad_h * sin_c_20, sin_h_26)
    grad_sin_c_20 = unbroadcast(grad_h * sin_h_26, sin_c_20)
    del sin_c_20, sin_h_26
    h = h_old_29
    del h_old_29
    grad_c = add_into(grad_c, grad_sin_c_20 * np.cos(c))
    del grad_sin_c_20
    grad_h = grad_sin_h_26 * np.cos(h)
    del grad_sin_h_26
    # h = np.sin(h) * np.tanh(t35)
    grad_sin_h_25 = unbroadcast(grad_h * tanh_t35, sin_h_25)
    grad_tanh_t35 = unbroadcast(grad_h * sin_h_25, tanh_t35)
    del sin_h_25
    h = h_old_30
    del h_old_30
    grad_t35 = grad_tanh_t35 * (1 - tanh_t35 ** 2)
    del grad_tanh_t35, tanh_t35
    grad_h = grad_sin_h_25 * np.cos(h)
    del grad_sin_h_25
    # h = np.tanh(h) + np.tanh(y)
    h = h_old_31
    del h_old_31
    grad_tanh_y_12 = unbroadcast(grad_h, y)
    grad_y = add_into(grad_y, grad_tanh_y_12 * (1 - tanh_y_12 ** 2))
    del grad_tanh_y_12, tanh_y_12
    grad_tanh_h_19 = unbroadcast(grad_h, tanh_h_19)
    grad_h = grad_tanh_h_19 * (1 - tanh_h_19 ** 2)
    del grad_tanh_h_19, tanh_h_19
    # t35 = np.sin(c) + np.tanh(y)
    grad_sin_c_19 = unbroadcast(grad_t35, sin_c_19)
    grad_tanh_y_11 = unbroadcast(grad_t35, y)
    del grad_t35
    grad_y = add_into(grad_y, grad_tanh_y_11 * (1 - tanh_y_11 ** 2))
    del grad_tanh_y_11, tanh_y_11
    grad_c = add_into(grad_c, grad_sin_c_19 * np.cos(c))
    del grad_sin_c_19
    # if np.sum(x) > np.sum(y):
    if sum_x_gt_sum_y:
        # c = np.cos(c) + np.tanh(y)
        grad_cos_c_24 = unbroadcast(grad_c, cos_c_24)
        c = c_old_23
        grad_tanh_y_10 = unbroadcast(grad_c, y)
        grad_y = add_into(grad_y, grad_tanh_y_10 * (1 - tanh_y_10 ** 2))
        grad_c = -grad_cos_c_24 * np.sin(c)
    else:
        # c = np.sin(c) * np.sin(h)
        grad_sin_c_18 = unbroadcast(grad_c * sin_h_24, sin_c_18)
        grad_sin_h_24 = unbroadcast(grad_c * sin_c_18, sin_h_24)
        c = c_old_24
        grad_h = add_into(grad_h, grad_sin_h_24 * np.cos(h))
        grad_c = grad_sin_c_18 * np.cos(c)
    # c = np.sin(c) * np.cos(h)
    grad_sin_c_17 = unbroadcast(grad_c * cos_h_27, sin_c_17)
    grad_cos_h_27 = unbroadcast(grad_c * sin_c_17, cos_h_27)
    del cos_h_27, sin_c_17
    c = c_old_25
    del c_old_25
    grad_h = add_into(grad_h, -grad_cos_h_27 * np.sin(h))
    del grad_cos_h_27
    grad_c = grad_sin_c_17 * np.cos(c)
    del grad_sin_c_17
    # c = np.cos(c) + np.sin(y)
    c = c_old_26
    del c_old_26
    grad_sin_y_9 = unbroadcast(grad_c, y)
    grad_y = add_into(grad_y, grad_sin_y_9 * np.cos(y))
    del grad_sin_y_9
    grad_cos_c_23 = unbroadcast(grad_c, cos_c_23)
    grad_c = -grad_cos_c_23 * np.sin(c)
    del grad_cos_c_23
    # h = np.tanh(h) + np.cos(c)
    h = h_old_32
    del h_old_32
    grad_cos_c_22 = unbroadcast(grad_h, cos_c_22)
    grad_c = add_into(grad_c, -grad_cos_c_22 * np.sin(c))
    del grad_cos_c_22
    grad_tanh_h_18 = unbroadcast(grad_h, tanh_h_18)
    grad_h = grad_tanh_h_18 * (1 - tanh_h_18 ** 2)
    del grad_tanh_h_18, tanh_h_18
    # c = np.tanh(c) * np.tanh(c)
    grad_tanh_c_18 = unbroadcast(grad_c * tanh_c_19, tanh_c_18)
    c = c_old_27
    del c_old_27
    grad_tanh_c_19 = unbroadcast(grad_c * tanh_c_18, tanh_c_19)
    grad_c = grad_tanh_c_19 * (1 - tanh_c_19 ** 2)
    del grad_tanh_c_19, tanh_c_19
    grad_c = add_into(grad_c, grad_tanh_c_18 * (1 - tanh_c_18 ** 2))
    del grad_tanh_c_18, tanh_c_18
    # h = np.sin(h) * np.tanh(c)
    grad_sin_h_23 = unbroadcast(grad_h * tanh_c_17, sin_h_23)
    grad_tanh_c_17 = unbroadcast(grad_h * sin_h_23, tanh_c_17)
    del sin_h_23
    h = h_old_33
    del h_old_33
    grad_c = add_into(grad_c, grad_tanh_c_17 * (1 - tanh_c_17 ** 2))
    del grad_tanh_c_17, tanh_c_17
    grad_h = grad_sin_h_23 * np.cos(h)
    del grad_sin_h_23
    # h = np.sin(h) * np.sin(h)
    grad_sin_h_21 = unbroadcast(grad_h * sin_h_22, sin_h_21)
    grad_sin_h_22 = unbroadcast(grad_h * sin_h_21, sin_h_22)
    del sin_h_21, sin_h_22
    h = h_old_34
    del h_old_34
    grad_h = grad_sin_h_22 * np.cos(h)
    del grad_sin_h_22
    grad_h = add_into(grad_h, grad_sin_h_21 * np.cos(h))
    del grad_sin_h_21
    # if np.sum(c) > np.sum(h):
    if sum_c_gt_sum_h:
        # h = np.sin(h) + np.tanh(h)
        grad_sin_h_20 = unbroadcast(grad_h, sin_h_20)
        h = h_old_35
        grad_tanh_h_17 = unbroadcast(grad_h, tanh_h_17)
        grad_h = grad_tanh_h_17 * (1 - tanh_h_17 ** 2)
        grad_h = add_into(grad_h, grad_sin_h_20 * np.cos(h))
    else:
        # h = np.cos(h) * np.sin(c)
        grad_cos_h_26 = unbroadcast(grad_h * sin_c_16, cos_h_26)
        grad_sin_c_16 = unbroadcast(grad_h * cos_h_26, sin_c_16)
        h = h_old_36
        grad_c = add_into(grad_c, grad_sin_c_16 * np.cos(c))
        grad_h = -grad_cos_h_26 * np.sin(h)
    # c = np.sin(c) + np.tanh(t34)
    c = c_old_28
    del c_old_28
    grad_tanh_t34 = unbroadcast(grad_c, tanh_t34)
    grad_t34 = grad_tanh_t34 * (1 - tanh_t34 ** 2)
    del grad_tanh_t34, tanh_t34
    grad_sin_c_15 = unbroadcast(grad_c, sin_c_15)
    grad_c = grad_sin_c_15 * np.cos(c)
    del grad_sin_c_15
    # h = np.cos(h) * np.tanh(x)
    grad_cos_h_25 = unbroadcast(grad_h * tanh_x_8, cos_h_25)
    grad_tanh_x_8 = unbroadcast(grad_h * cos_h_25, x)
    del cos_h_25
    h = h_old_37
    del h_old_37
    grad_x = add_into(grad_x, grad_tanh_x_8 * (1 - tanh_x_8 ** 2))
    del grad_tanh_x_8, tanh_x_8
    grad_h = -grad_cos_h_25 * np.sin(h)
    del grad_cos_h_25
    # t34 = np.cos(h) + np.sin(x)
    grad_cos_h_24 = unbroadcast(grad_t34, cos_h_24)
    grad_sin_x_8 = unbroadcast(grad_t34, x)
    del grad_t34
    grad_x = add_into(grad_x, grad_sin_x_8 * np.cos(x))
    del grad_sin_x_8
    grad_h = add_into(grad_h, -grad_cos_h_24 * np.sin(h))
    del grad_cos_h_24
    # h = np.sin(h) - np.cos(x)
    h = h_old_38
    del h_old_38
    grad_cos_x_8 = unbroadcast(-grad_h, x)
    grad_x = add_into(grad_x, -grad_cos_x_8 * np.sin(x))
    del grad_cos_x_8
    grad_sin_h_19 = unbroadcast(grad_h, sin_h_19)
    grad_h = grad_sin_h_19 * np.cos(h)
    del grad_sin_h_19
    # c = np.sin(c) + np.tanh(t33)
    c = c_old_29
    del c_old_29
    grad_tanh_t33 = unbroadcast(grad_c, y)
    grad_t33 = grad_tanh_t33 * (1 - tanh_t33 ** 2)
    del grad_tanh_t33, tanh_t33
    grad_sin_c_14 = unbroadcast(grad_c, sin_c_14)
    grad_c = grad_sin_c_14 * np.cos(c)
    del grad_sin_c_14
    # t33 = np.cos(y) * np.sin(y)
    grad_cos_y_11 = grad_t33 * sin_y_8
    del sin_y_8
    grad_sin_y_8 = grad_t33 * cos_y_11
    del cos_y_11, grad_t33
    grad_y = add_into(grad_y, grad_sin_y_8 * np.cos(y))
    del grad_sin_y_8
    grad_y = add_into(grad_y, -grad_cos_y_11 * np.sin(y))
    del grad_cos_y_11
    # if np.sum(y) > np.sum(c):
    if sum_y_gt_sum_c:
        # c = np.sin(c) - np.cos(y)
        grad_sin_c_13 = unbroadcast(grad_c, sin_c_13)
        c = c_old_30
        grad_cos_y_10 = unbroadcast(-grad_c, y)
        grad_y = add_into(grad_y, -grad_cos_y_10 * np.sin(y))
        grad_c = grad_sin_c_13 * np.cos(c)
    else:
        # c = np.tanh(c) - np.tanh(h)
        c = c_old_31
        grad_tanh_h_16 = unbroadcast(-grad_c, tanh_h_16)
        grad_h = add_into(grad_h, grad_tanh_h_16 * (1 - tanh_h_16 ** 2))
        grad_tanh_c_16 = unbroadcast(grad_c, tanh_c_16)
        grad_c = grad_tanh_c_16 * (1 - tanh_c_16 ** 2)
    # c = np.sin(c) - np.sin(t32)
    c = c_old_32
    del c_old_32
    grad_sin_t32 = unbroadcast(-grad_c, sin_t32)
    grad_t32 = grad_sin_t32 * np.cos(t32)
    del grad_sin_t32, t32
    grad_sin_c_12 = unbroadcast(grad_c, sin_c_12)
    grad_c = grad_sin_c_12 * np.cos(c)
    del grad_sin_c_12
    # t32 = np.sin(h) + np.cos(h)
    grad_sin_h_18 = unbroadcast(grad_t32, sin_h_18)
    grad_cos_h_23 = unbroadcast(grad_t32, cos_h_23)
    del grad_t32
    grad_h = add_into(grad_h, -grad_cos_h_23 * np.sin(h))
    del grad_cos_h_23
    grad_h = add_into(grad_h, grad_sin_h_18 * np.cos(h))
    del grad_sin_h_18
    # h = np.tanh(h) * np.cos(h)
    grad_tanh_h_15 = unbroadcast(grad_h * cos_h_22, tanh_h_15)
    grad_cos_h_22 = unbroadcast(grad_h * tanh_h_15, cos_h_22)
    del cos_h_22
    h = h_old_39
    del h_old_39
    grad_h = -grad_cos_h_22 * np.sin(h)
    del grad_cos_h_22
    grad_h = add_into(grad_h, grad_tanh_h_15 * (1 - tanh_h_15 ** 2))
    del grad_tanh_h_15, tanh_h_15
    # c = np.cos(c) - np.cos(h)
    c = c_old_33
    del c_old_33
    grad_cos_h_21 = unbroadcast(-grad_c, cos_h_21)
    grad_h = add_into(grad_h, -grad_cos_h_21 * np.sin(h))
    del grad_cos_h_21
    grad_cos_c_21 = unbroadcast(grad_c, cos_c_21)
    grad_c = -grad_cos_c_21 * np.sin(c)
    del grad_cos_c_21
    # c = np.sin(c) + np.cos(c)
    grad_sin_c_11 = unbroadcast(grad_c, sin_c_11)
    c = c_old_34
    del c_old_34
    grad_cos_c_20 = unbroadcast(grad_c, cos_c_20)
    grad_c = -grad_cos_c_20 * np.sin(c)
    del grad_cos_c_20
    grad_c = add_into(grad_c, grad_sin_c_11 * np.cos(c))
    del grad_sin_c_11
    # c = np.cos(c) * np.cos(c)
    grad_cos_c_18 = unbroadcast(grad_c * cos_c_19, cos_c_18)
    grad_cos_c_19 = unbroadcast(grad_c * cos_c_18, cos_c_19)
    del cos_c_18, cos_c_19
    c = c_old_35
    del c_old_35
    grad_c = -grad_cos_c_19 * np.sin(c)
    del grad_cos_c_19
    grad_c = add_into(grad_c, -grad_cos_c_18 * np.sin(c))
    del grad_cos_c_18
    # if np.sum(x) > np.sum(c):
    if sum_x_gt_sum_c:
        # h = np.cos(h) + np.sin(y)
        grad_cos_h_20 = unbroadcast(grad_h, cos_h_20)
        h = h_old_40
        grad_sin_y_7 = unbroadcast(grad_h, y)
        grad_y = add_into(grad_y, grad_sin_y_7 * np.cos(y))
        grad_h = -grad_cos_h_20 * np.sin(h)
    else:
        # h = np.tanh(h) - np.tanh(c)
        h = h_old_41
        grad_tanh_c_15 = unbroadcast(-grad_h, tanh_c_15)
        grad_c = add_into(grad_c, grad_tanh_c_15 * (1 - tanh_c_15 ** 2))
        grad_tanh_h_14 = unbroadcast(grad_h, tanh_h_14)
        grad_h = grad_tanh_h_14 * (1 - tanh_h_14 ** 2)
    # h = np.cos(h) - np.sin(t31)
    h = h_old_42
    del h_old_42
    grad_sin_t31 = unbroadcast(-grad_h, x)
    grad_t31 = grad_sin_t31 * np.cos(t31)
    del grad_sin_t31, t31
    grad_cos_h_19 = unbroadcast(grad_h, cos_h_19)
    grad_h = -grad_cos_h_19 * np.sin(h)
    del grad_cos_h_19
    # c = np.sin(c) - np.cos(x)
    c = c_old_36
    del c_old_36
    grad_cos_x_7 = unbroadcast(-grad_c, x)
    grad_x = add_into(grad_x, -grad_cos_x_7 * np.sin(x))
    del grad_cos_x_7
    grad_sin_c_10 = unbroadcast(grad_c, sin_c_10)
    grad_c = grad_sin_c_10 * np.cos(c)
    del grad_sin_c_10
    # c = np.tanh(c) * np.cos(h)
    grad_tanh_c_14 = unbroadcast(grad_c * cos_h_18, tanh_c_14)
    grad_cos_h_18 = unbroadcast(grad_c * tanh_c_14, cos_h_18)
    del cos_h_18
    c = c_old_37
    del c_old_37
    grad_h = add_into(grad_h, -grad_cos_h_18 * np.sin(h))
    del grad_cos_h_18
    grad_c = grad_tanh_c_14 * (1 - tanh_c_14 ** 2)
    del grad_tanh_c_14, tanh_c_14
    # t31 = np.cos(x) * np.tanh(x)
    grad_cos_x_6 = grad_t31 * tanh_x_7
    grad_tanh_x_7 = grad_t31 * cos_x_6
    del cos_x_6, grad_t31
    grad_x = add_into(grad_x, grad_tanh_x_7 * (1 - tanh_x_7 ** 2))
    del grad_tanh_x_7, tanh_x_7
    grad_x = add_into(grad_x, -grad_cos_x_6 * np.sin(x))
    del grad_cos_x_6
    # h = np.sin(h) - np.cos(y)
    h = h_old_43
    del h_old_43
    grad_cos_y_9 = unbroadcast(-grad_h, y)
    grad_y = add_into(grad_y, -grad_cos_y_9 * np.sin(y))
    del grad_cos_y_9
    grad_sin_h_17 = unbroadcast(grad_h, sin_h_17)
    grad_h = grad_sin_h_17 * np.cos(h)
    del grad_sin_h_17
    # h = np.cos(h) + np.sin(x)
    h = h_old_44
    del h_old_44
    grad_sin_x_7 = unbroadcast(grad_h, x)
    grad_x = add_into(grad_x, grad_sin_x_7 * np.cos(x))
    del grad_sin_x_7
    grad_cos_h_17 = unbroadcast(grad_h, cos_h_17)
    grad_h = -grad_cos_h_17 * np.sin(h)
    del grad_cos_h_17
    # if np.sum(y) > np.sum(x):
    if sum_y_gt_sum_x:
        # c = np.cos(c) + np.tanh(y)
        grad_cos_c_17 = unbroadcast(grad_c, cos_c_17)
        c = c_old_38
        grad_tanh_y_9 = unbroadcast(grad_c, y)
        grad_y = add_into(grad_y, grad_tanh_y_9 * (1 - tanh_y_9 ** 2))
        grad_c = -grad_cos_c_17 * np.sin(c)
    else:
        # c = np.sin(c) - np.sin(x)
        grad_sin_c_9 = unbroadcast(grad_c, sin_c_9)
        c = c_old_39
        grad_sin_x_6 = unbroadcast(-grad_c, x)
        grad_x = add_into(grad_x, grad_sin_x_6 * np.cos(x))
        grad_c = grad_sin_c_9 * np.cos(c)
    # c = np.sin(c) - np.sin(t30)
    c = c_old_40
    del c_old_40
    grad_sin_t30 = unbroadcast(-grad_c, sin_t30)
    grad_t30 = grad_sin_t30 * np.cos(t30)
    del grad_sin_t30, t30
    grad_sin_c_8 = unbroadcast(grad_c, sin_c_8)
    grad_c = grad_sin_c_8 * np.cos(c)
    del grad_sin_c_8
    # h = np.sin(h) * np.cos(y)
    grad_sin_h_16 = unbroadcast(grad_h * cos_y_8, sin_h_16)
    del cos_y_8
    grad_cos_y_8 = unbroadcast(grad_h * sin_h_16, y)
    del sin_h_16
    h = h_old_45
    del h_old_45
    grad_y = add_into(grad_y, -grad_cos_y_8 * np.sin(y))
    del grad_cos_y_8
    grad_h = grad_sin_h_16 * np.cos(h)
    del grad_sin_h_16
    # t30 = np.sin(t29) - np.tanh(c)
    grad_sin_t29 = unbroadcast(grad_t30, sin_t29)
    grad_tanh_c_13 = unbroadcast(-grad_t30, tanh_c_13)
    del grad_t30
    grad_c = add_into(grad_c, grad_tanh_c_13 * (1 - tanh_c_13 ** 2))
    del grad_tanh_c_13, tanh_c_13
    grad_t29 = grad_sin_t29 * np.cos(t29)
    del grad_sin_t29, t29
    # t29 = np.cos(c) * np.tanh(c)
    grad_cos_c_16 = unbroadcast(grad_t29 * tanh_c_12, cos_c_16)
    grad_tanh_c_12 = unbroadcast(grad_t29 * cos_c_16, tanh_c_12)
    del cos_c_16, grad_t29
    grad_c = add_into(grad_c, grad_tanh_c_12 * (1 - tanh_c_12 ** 2))
    del grad_tanh_c_12, tanh_c_12
    grad_c = add_into(grad_c, -grad_cos_c_16 * np.sin(c))
    del grad_cos_c_16
    # c = np.tanh(c) * np.sin(t28)
    grad_tanh_c_11 = unbroadcast(grad_c * sin_t28, tanh_c_11)
    del sin_t28
    c = c_old_41
    del c_old_41
    grad_sin_t28 = unbroadcast(grad_c * tanh_c_11, x)
    grad_t28 = grad_sin_t28 * np.cos(t28)
    del grad_sin_t28, t28
    grad_c = grad_tanh_c_11 * (1 - tanh_c_11 ** 2)
    del grad_tanh_c_11, tanh_c_11
    # t28 = np.sin(x) - np.cos(x)
    grad_cos_x_5 = -grad_t28
    grad_x = add_into(grad_x, -grad_cos_x_5 * np.sin(x))
    del grad_cos_x_5
    grad_x = add_into(grad_x, grad_t28 * np.cos(x))
    del grad_t28
    # if np.sum(t27) > np.sum(y):
    if sum_t27_gt_sum_y:
        # c = np.tanh(c) - np.tanh(c)
        grad_tanh_c_9 = unbroadcast(grad_c, tanh_c_9)
        c = c_old_42
        grad_tanh_c_10 = unbroadcast(-grad_c, tanh_c_10)
        grad_c = grad_tanh_c_10 * (1 - tanh_c_10 ** 2)
        grad_c = add_into(grad_c, grad_tanh_c_9 * (1 - tanh_c_9 ** 2))
    else:
        # c = np.cos(c) - np.cos(c)
        grad_cos_c_14 = unbroadcast(grad_c, cos_c_14)
        grad_cos_c_15 = unbroadcast(-grad_c, cos_c_15)
        c = c_old_43
        grad_c = -grad_cos_c_15 * np.sin(c)
        grad_c = add_into(grad_c, -grad_cos_c_14 * np.sin(c))
    # c = np.cos(c) - np.sin(y)
    c = c_old_44
    del c_old_44
    grad_sin_y_6 = unbroadcast(-grad_c, y)
    grad_y = add_into(grad_y, grad_sin_y_6 * np.cos(y))
    del grad_sin_y_6
    grad_cos_c_13 = unbroadcast(grad_c, cos_c_13)
    grad_c = -grad_cos_c_13 * np.sin(c)
    del grad_cos_c_13
    # if np.sum(t22) > np.sum(c):
    if sum_t22_gt_sum_c:
        # h = np.cos(h) * np.cos(c)
        grad_cos_h_16 = unbroadcast(grad_h * cos_c_12, cos_h_16)
        grad_cos_c_12 = unbroadcast(grad_h * cos_h_16, cos_c_12)
        h = h_old_46
        grad_c = add_into(grad_c, -grad_cos_c_12 * np.sin(c))
        grad_h = -grad_cos_h_16 * np.sin(h)
    else:
        # h = np.tanh(h) + np.tanh(h)
        grad_tanh_h_12 = unbroadcast(grad_h, tanh_h_12)
        h = h_old_47
        grad_tanh_h_13 = unbroadcast(grad_h, tanh_h_13)
        grad_h = grad_tanh_h_13 * (1 - tanh_h_13 ** 2)
        grad_h = add_into(grad_h, grad_tanh_h_12 * (1 - tanh_h_12 ** 2))
    # h = np.sin(h) - np.sin(y)
    h = h_old_48
    del h_old_48
    grad_sin_y_5 = unbroadcast(-grad_h, y)
    grad_y = add_into(grad_y, grad_sin_y_5 * np.cos(y))
    del grad_sin_y_5
    grad_sin_h_15 = unbroadcast(grad_h, sin_h_15)
    grad_h = grad_sin_h_15 * np.cos(h)
    del grad_sin_h_15
    # h = np.cos(h) * np.tanh(t21)
    grad_cos_h_15 = unbroadcast(grad_h * tanh_t21, cos_h_15)
    grad_tanh_t21 = unbroadcast(grad_h * cos_h_15, tanh_t21)
    del cos_h_15
    h = h_old_49
    del h_old_49
    grad_t21 = grad_tanh_t21 * (1 - tanh_t21 ** 2)
    del grad_tanh_t21, tanh_t21
    grad_h = -grad_cos_h_15 * np.sin(h)
    del grad_cos_h_15
    # t21 = np.tanh(x) - np.tanh(h)
    grad_tanh_x_6 = unbroadcast(grad_t21, x)
    grad_tanh_h_11 = unbroadcast(-grad_t21, tanh_h_11)
    del grad_t21
    grad_h = add_into(grad_h, grad_tanh_h_11 * (1 - tanh_h_11 ** 2))
    del grad_tanh_h_11, tanh_h_11
    grad_x = add_into(grad_x, grad_tanh_x_6 * (1 - tanh_x_6 ** 2))
    del grad_tanh_x_6, tanh_x_6
    # c = np.tanh(c) * np.tanh(y)
    grad_tanh_c_8 = unbroadcast(grad_c * tanh_y_8, tanh_c_8)
    c = c_old_45
    del c_old_45
    grad_tanh_y_8 = unbroadcast(grad_c * tanh_c_8, y)
    grad_y = add_into(grad_y, grad_tanh_y_8 * (1 - tanh_y_8 ** 2))
    del grad_tanh_y_8, tanh_y_8
    grad_c = grad_tanh_c_8 * (1 - tanh_c_8 ** 2)
    del grad_tanh_c_8, tanh_c_8
    # h = np.cos(h) * np.cos(h)
    grad_cos_h_13 = unbroadcast(grad_h * cos_h_14, cos_h_13)
    grad_cos_h_14 = unbroadcast(grad_h * cos_h_13, cos_h_14)
    del cos_h_13, cos_h_14
    h = h_old_50
    del h_old_50
    grad_h = -grad_cos_h_14 * np.sin(h)
    del grad_cos_h_14
    grad_h = add_into(grad_h, -grad_cos_h_13 * np.sin(h))
    del grad_cos_h_13
    # if np.sum(y) > np.sum(c):
    if sum_y_gt_sum_c_2:
        # h = np.cos(h) - np.cos(c)
        grad_cos_h_11 = unbroadcast(grad_h, cos_h_11)
        grad_cos_c_11 = unbroadcast(-grad_h, cos_c_11)
        h = h_old_51
        grad_c = add_into(grad_c, -grad_cos_c_11 * np.sin(c))
        grad_h = -grad_cos_h_11 * np.sin(h)
    else:
        # h = np.cos(h) * np.tanh(h)
        grad_cos_h_12 = unbroadcast(grad_h * tanh_h_10, cos_h_12)
        grad_tanh_h_10 = unbroadcast(grad_h * cos_h_12, tanh_h_10)
        h = h_old_52
        grad_h = grad_tanh_h_10 * (1 - tanh_h_10 ** 2)
        grad_h = add_into(grad_h, -grad_cos_h_12 * np.sin(h))
    # h = np.tanh(h) * np.sin(x)
    grad_tanh_h_9 = unbroadcast(grad_h * sin_x_4, tanh_h_9)
    del sin_x_4
    h = h_old_53
    del h_old_53
    grad_sin_x_4 = unbroadcast(grad_h * tanh_h_9, x)
    grad_x = add_into(grad_x, grad_sin_x_4 * np.cos(x))
    del grad_sin_x_4
    grad_h = grad_tanh_h_9 * (1 - tanh_h_9 ** 2)
    del grad_tanh_h_9, tanh_h_9
    # c = np.sin(c) + np.cos(t20)
    c = c_old_46
    del c_old_46
    grad_cos_t20 = unbroadcast(grad_c, cos_t20)
    grad_t20 = -grad_cos_t20 * np.sin(t20)
    del grad_cos_t20, t20
    grad_sin_c_7 = unbroadcast(grad_c, sin_c_7)
    grad_c = grad_sin_c_7 * np.cos(c)
    del grad_sin_c_7
    # t20 = np.tanh(t19) * np.cos(x)
    grad_tanh_t19 = unbroadcast(grad_t20 * cos_x_4, tanh_t19)
    del cos_x_4
    grad_cos_x_4 = unbroadcast(grad_t20 * tanh_t19, x)
    del grad_t20
    grad_x = add_into(grad_x, -grad_cos_x_4 * np.sin(x))
    del grad_cos_x_4
    grad_t19 = grad_tanh_t19 * (1 - tanh_t19 ** 2)
    del grad_tanh_t19, tanh_t19
    # c = np.sin(c) + np.sin(h)
    c = c_old_47
    del c_old_47
    grad_sin_h_14 = unbroadcast(grad_c, sin_h_14)
    grad_h = add_into(grad_h, grad_sin_h_14 * np.cos(h))
    del grad_sin_h_14
    grad_sin_c_6 = unbroadcast(grad_c, sin_c_6)
    grad_c = grad_sin_c_6 * np.cos(c)
    del grad_sin_c_6
    # t19 = np.sin(h) - np.tanh(c)
    grad_sin_h_13 = unbroadcast(grad_t19, sin_h_13)
    grad_tanh_c_7 = unbroadcast(-grad_t19, tanh_c_7)
    del grad_t19
    grad_c = add_into(grad_c, grad_tanh_c_7 * (1 - tanh_c_7 ** 2))
    del grad_tanh_c_7, tanh_c_7
    grad_h = add_into(grad_h, grad_sin_h_13 * np.cos(h))
    del grad_sin_h_13
    # c = np.tanh(c) - np.tanh(h)
    c = c_old_48
    del c_old_48
    grad_tanh_h_8 = unbroadcast(-grad_c, tanh_h_8)
    grad_h = add_into(grad_h, grad_tanh_h_8 * (1 - tanh_h_8 ** 2))
    del grad_tanh_h_8, tanh_h_8
    grad_tanh_c_6 = unbroadcast(grad_c, tanh_c_6)
    grad_c = grad_tanh_c_6 * (1 - tanh_c_6 ** 2)
    del grad_tanh_c_6, tanh_c_6
    # if np.sum(c) > np.sum(x):
    if sum_c_gt_sum_x:
        # c = np.cos(c) * np.cos(y)
        grad_cos_c_10 = unbroadcast(grad_c * cos_y_7, cos_c_10)
        grad_cos_y_7 = unbroadcast(grad_c * cos_c_10, y)
        c = c_old_49
        grad_y = add_into(grad_y, -grad_cos_y_7 * np.sin(y))
        grad_c = -grad_cos_c_10 * np.sin(c)
        grad_t18 = zeros_like_grad(t18)
    else:
        # c = np.tanh(c) - np.sin(t18)
        grad_sin_t18 = unbroadcast(-grad_c, sin_t18)
        c = c_old_50
        grad_t18 = grad_sin_t18 * np.cos(t18)
        grad_tanh_c_5 = unbroadcast(grad_c, tanh_c_5)
        grad_c = grad_tanh_c_5 * (1 - tanh_c_5 ** 2)
    del t18
    # t18 = np.tanh(h) * np.cos(y)
    grad_tanh_h_7 = unbroadcast(grad_t18 * cos_y_6, tanh_h_7)
    del cos_y_6
    grad_cos_y_6 = unbroadcast(grad_t18 * tanh_h_7, y)
    grad_y = add_into(grad_y, -grad_cos_y_6 * np.sin(y))
    del grad_cos_y_6
    grad_h = add_into(grad_h, grad_tanh_h_7 * (1 - tanh_h_7 ** 2))
    del grad_tanh_h_7, tanh_h_7
    # h = np.tanh(h) + np.tanh(h)
    grad_tanh_h_5 = unbroadcast(grad_h, tanh_h_5)
    h = h_old_54
    del h_old_54
    grad_tanh_h_6 = unbroadcast(grad_h, tanh_h_6)
    grad_h = grad_tanh_h_6 * (1 - tanh_h_6 ** 2)
    del grad_tanh_h_6, tanh_h_6
    grad_h = add_into(grad_h, grad_tanh_h_5 * (1 - tanh_h_5 ** 2))
    del grad_tanh_h_5, tanh_h_5
    # h = np.sin(h) * np.tanh(x)
    grad_sin_h_12 = unbroadcast(grad_h * tanh_x_5, sin_h_12)
    grad_tanh_x_5 = unbroadcast(grad_h * sin_h_12, x)
    del sin_h_12
    h = h_old_55
    del h_old_55
    grad_x = add_into(grad_x, grad_tanh_x_5 * (1 - tanh_x_5 ** 2))
    del grad_tanh_x_5, tanh_x_5
    grad_h = grad_sin_h_12 * np.cos(h)
    del grad_sin_h_12
    # c = np.sin(c) - np.sin(t17)
    c = c_old_51
    del c_old_51
    grad_sin_t17 = unbroadcast(-grad_c, sin_t17)
    grad_t17 = grad_sin_t17 * np.cos(t17)
    del grad_sin_t17, t17
    grad_sin_c_5 = unbroadcast(grad_c, sin_c_5)
    grad_c = grad_sin_c_5 * np.cos(c)
    del grad_sin_c_5
    # t17 = np.cos(t16) + np.tanh(h)
    grad_cos_t16 = unbroadcast(grad_t17, cos_t16)
    grad_tanh_h_4 = unbroadcast(grad_t17, tanh_h_4)
    del grad_t17
    grad_h = add_into(grad_h, grad_tanh_h_4 * (1 - tanh_h_4 ** 2))
    del grad_tanh_h_4, tanh_h_4
    grad_t16 = -grad_cos_t16 * np.sin(t16)
    del grad_cos_t16, t16
    # t16 = np.cos(h) + np.cos(x)
    grad_cos_h_10 = unbroadcast(grad_t16, cos_h_10)
    grad_cos_x_3 = unbroadcast(grad_t16, x)
    del grad_t16
    grad_x = add_into(grad_x, -grad_cos_x_3 * np.sin(x))
    del grad_cos_x_3
    grad_h = add_into(grad_h, -grad_cos_h_10 * np.sin(h))
    del grad_cos_h_10
    # if np.sum(t15) > np.sum(h):
    if sum_t15_gt_sum_h:
        # h = np.cos(h) + np.tanh(y)
        grad_cos_h_8 = unbroadcast(grad_h, cos_h_8)
        h = h_old_56
        grad_tanh_y_7 = unbroadcast(grad_h, y)
        grad_y = add_into(grad_y, grad_tanh_y_7 * (1 - tanh_y_7 ** 2))
        grad_h = -grad_cos_h_8 * np.sin(h)
    else:
        # h = np.cos(h) - np.tanh(c)
        grad_cos_h_9 = unbroadcast(grad_h, cos_h_9)
        h = h_old_57
        grad_tanh_c_4 = unbroadcast(-grad_h, tanh_c_4)
        grad_c = add_into(grad_c, grad_tanh_c_4 * (1 - tanh_c_4 ** 2))
        grad_h = -grad_cos_h_9 * np.sin(h)
    # c = np.cos(c) + np.sin(y)
    c = c_old_52
    del c_old_52
    grad_sin_y_4 = unbroadcast(grad_c, y)
    grad_y = add_into(grad_y, grad_sin_y_4 * np.cos(y))
    del grad_sin_y_4
    grad_cos_c_9 = unbroadcast(grad_c, cos_c_9)
    grad_c = -grad_cos_c_9 * np.sin(c)
    del grad_cos_c_9
    # h = np.cos(h) * np.sin(t14)
    grad_cos_h_7 = unbroadcast(grad_h * sin_t14, cos_h_7)
    grad_sin_t14 = unbroadcast(grad_h * cos_h_7, sin_t14)
    del cos_h_7, sin_t14
    h = h_old_58
    del h_old_58
    grad_t14 = grad_sin_t14 * np.cos(t14)
    del grad_sin_t14, t14
    grad_h = -grad_cos_h_7 * np.sin(h)
    del grad_cos_h_7
    # t14 = np.tanh(c) - np.tanh(y)
    grad_tanh_c_3 = unbroadcast(grad_t14, tanh_c_3)
    grad_tanh_y_6 = unbroadcast(-grad_t14, y)
    del grad_t14
    grad_y = add_into(grad_y, grad_tanh_y_6 * (1 - tanh_y_6 ** 2))
    del grad_tanh_y_6, tanh_y_6
    grad_c = add_into(grad_c, grad_tanh_c_3 * (1 - tanh_c_3 ** 2))
    del grad_tanh_c_3, tanh_c_3
    # c = np.cos(c) - np.sin(y)
    c = c_old_53
    del c_old_53
    grad_sin_y_3 = unbroadcast(-grad_c, y)
    grad_y = add_into(grad_y, grad_sin_y_3 * np.cos(y))
    del grad_sin_y_3
    grad_cos_c_8 = unbroadcast(grad_c, cos_c_8)
    grad_c = -grad_cos_c_8 * np.sin(c)
    del grad_cos_c_8
    # h = np.sin(h) + np.sin(h)
    grad_sin_h_10 = unbroadcast(grad_h, sin_h_10)
    h = h_old_59
    del h_old_59
    grad_sin_h_11 = unbroadcast(grad_h, sin_h_11)
    grad_h = grad_sin_h_11 * np.cos(h)
    del grad_sin_h_11
    grad_h = add_into(grad_h, grad_sin_h_10 * np.cos(h))
    del grad_sin_h_10
    # if np.sum(t13) > np.sum(h):
    if sum_t13_gt_sum_h:
        # c = np.sin(c) + np.cos(y)
        grad_sin_c_3 = unbroadcast(grad_c, sin_c_3)
        c = c_old_54
        grad_cos_y_5 = unbroadcast(grad_c, y)
        grad_y = add_into(grad_y, -grad_cos_y_5 * np.sin(y))
        grad_c = grad_sin_c_3 * np.cos(c)
    else:
        # c = np.sin(c) + np.sin(h)
        grad_sin_c_4 = unbroadcast(grad_c, sin_c_4)
        grad_sin_h_9 = unbroadcast(grad_c, sin_h_9)
        c = c_old_55
        grad_h = add_into(grad_h, grad_sin_h_9 * np.cos(h))
        grad_c = grad_sin_c_4 * np.cos(c)
    # h = np.tanh(h) * np.tanh(x)
    grad_tanh_h_3 = unbroadcast(grad_h * tanh_x_4, tanh_h_3)
    h = h_old_60
    del h_old_60
    grad_tanh_x_4 = unbroadcast(grad_h * tanh_h_3, x)
    grad_x = add_into(grad_x, grad_tanh_x_4 * (1 - tanh_x_4 ** 2))
    del grad_tanh_x_4, tanh_x_4
    grad_h = grad_tanh_h_3 * (1 - tanh_h_3 ** 2)
    del grad_tanh_h_3, tanh_h_3
    # h = np.cos(h) * np.tanh(t12)
    grad_cos_h_6 = unbroadcast(grad_h * tanh_t12, cos_h_6)
    grad_tanh_t12 = unbroadcast(grad_h * cos_h_6, tanh_t12)
    del cos_h_6
    h = h_old_61
    del h_old_61
    grad_t12 = grad_tanh_t12 * (1 - tanh_t12 ** 2)
    del grad_tanh_t12, tanh_t12
    grad_h = -grad_cos_h_6 * np.sin(h)
    del grad_cos_h_6
    # t12 = np.tanh(c) + np.sin(t11)
    grad_tanh_c_2 = unbroadcast(grad_t12, tanh_c_2)
    grad_sin_t11 = unbroadcast(grad_t12, sin_t11)
    del grad_t12
    grad_t11 = grad_sin_t11 * np.cos(t11)
    del grad_sin_t11, t11
    grad_c = add_into(grad_c, grad_tanh_c_2 * (1 - tanh_c_2 ** 2))
    del grad_tanh_c_2, tanh_c_2
    # t11 = np.cos(c) - np.tanh(x)
    grad_cos_c_7 = unbroadcast(grad_t11, cos_c_7)
    grad_tanh_x_3 = unbroadcast(-grad_t11, x)
    del grad_t11
    grad_x = add_into(grad_x, grad_tanh_x_3 * (1 - tanh_x_3 ** 2))
    del grad_tanh_x_3, tanh_x_3
    grad_c = add_into(grad_c, -grad_cos_c_7 * np.sin(c))
    del grad_cos_c_7
    # h = np.tanh(h) * np.cos(y)
    grad_tanh_h_2 = unbroadcast(grad_h * cos_y_4, tanh_h_2)
    del cos_y_4
    h = h_old_62
    del h_old_62
    grad_cos_y_4 = unbroadcast(grad_h * tanh_h_2, y)
    grad_y = add_into(grad_y, -grad_cos_y_4 * np.sin(y))
    del grad_cos_y_4
    grad_h = grad_tanh_h_2 * (1 - tanh_h_2 ** 2)
    del grad_tanh_h_2, tanh_h_2
    # if np.sum(t10) > np.sum(h):
    if sum_t10_gt_sum_h:
        # c = np.cos(c) - np.cos(c)
        grad_cos_c_5 = unbroadcast(grad_c, cos_c_5)
        grad_cos_c_6 = unbroadcast(-grad_c, cos_c_6)
        c = c_old_56
        grad_c = -grad_cos_c_6 * np.sin(c)
        grad_c = add_into(grad_c, -grad_cos_c_5 * np.sin(c))
    else:
        # c = np.sin(c) + np.sin(x)
        grad_sin_c_2 = unbroadcast(grad_c, sin_c_2)
        c = c_old_57
        grad_sin_x_3 = unbroadcast(grad_c, x)
        grad_x = add_into(grad_x, grad_sin_x_3 * np.cos(x))
        grad_c = grad_sin_c_2 * np.cos(c)
    # h = np.tanh(h) + np.cos(h)
    grad_tanh_h = unbroadcast(grad_h, tanh_h)
    h = h_old_63
    del h_old_63
    grad_cos_h_5 = unbroadcast(grad_h, cos_h_5)
    grad_h = -grad_cos_h_5 * np.sin(h)
    del grad_cos_h_5
    grad_h = add_into(grad_h, grad_tanh_h * (1 - tanh_h ** 2))
    del grad_tanh_h, tanh_h
    # h = np.sin(h) + np.cos(h)
    grad_sin_h_8 = unbroadcast(grad_h, sin_h_8)
    h = h_old_64
    del h_old_64
    grad_cos_h_4 = unbroadcast(grad_h, cos_h_4)
    grad_h = -grad_cos_h_4 * np.sin(h)
    del grad_cos_h_4
    grad_h = add_into(grad_h, grad_sin_h_8 * np.cos(h))
    del grad_sin_h_8
    # h = np.sin(h) * np.sin(h)
    grad_sin_h_6 = unbroadcast(grad_h * sin_h_7, sin_h_6)
    grad_sin_h_7 = unbroadcast(grad_h * sin_h_6, sin_h_7)
    del sin_h_6, sin_h_7
    h = h_old_65
    del h_old_65
    grad_h = grad_sin_h_7 * np.cos(h)
    del grad_sin_h_7
    grad_h = add_into(grad_h, grad_sin_h_6 * np.cos(h))
    del grad_sin_h_6
    # h = np.sin(h) - np.sin(h)
    grad_sin_h_4 = unbroadcast(grad_h, sin_h_4)
    h = h_old_66
    del h_old_66
    grad_sin_h_5 = unbroadcast(-grad_h, sin_h_5)
    grad_h = grad_sin_h_5 * np.cos(h)
    del grad_sin_h_5
    grad_h = add_into(grad_h, grad_sin_h_4 * np.cos(h))
    del grad_sin_h_4
    # if np.sum(t8) > np.sum(h):
    if sum_t8_gt_sum_h:
        # h = np.cos(h) * np.tanh(c)
        grad_cos_h_3 = unbroadcast(grad_h * tanh_c, cos_h_3)
        grad_tanh_c = unbroadcast(grad_h * cos_h_3, tanh_c)
        h = h_old_67
        grad_c = add_into(grad_c, grad_tanh_c * (1 - tanh_c ** 2))
        grad_h = -grad_cos_h_3 * np.sin(h)
    else:
        # h = np.sin(h) * np.cos(c)
        grad_sin_h_3 = unbroadcast(grad_h * cos_c_4, sin_h_3)
        grad_cos_c_4 = unbroadcast(grad_h * sin_h_3, cos_c_4)
        h = h_old_68
        grad_c = add_into(grad_c, -grad_cos_c_4 * np.sin(c))
        grad_h = grad_sin_h_3 * np.cos(h)
    # h = np.cos(h) * np.sin(t7)
    grad_cos_h_2 = unbroadcast(grad_h * sin_t7, cos_h_2)
    del sin_t7
    grad_sin_t7 = unbroadcast(grad_h * cos_h_2, y)
    del cos_h_2
    h = h_old_69
    del h_old_69
    grad_t7 = grad_sin_t7 * np.cos(t7)
    del grad_sin_t7, t7
    grad_h = -grad_cos_h_2 * np.sin(h)
    del grad_cos_h_2
    # c = np.cos(c) * np.tanh(t6)
    grad_cos_c_3 = unbroadcast(grad_c * tanh_t6, cos_c_3)
    grad_tanh_t6 = unbroadcast(grad_c * cos_c_3, tanh_t6)
    del cos_c_3
    c = c_old_58
    del c_old_58
    grad_t6 = grad_tanh_t6 * (1 - tanh_t6 ** 2)
    del grad_tanh_t6, tanh_t6
    grad_c = -grad_cos_c_3 * np.sin(c)
    del grad_cos_c_3
    # t7 = np.cos(y) * np.cos(y)
    grad_cos_y_2 = grad_t7 * cos_y_3
    del cos_y_3
    grad_cos_y_3 = grad_t7 * cos_y_2
    del cos_y_2, grad_t7
    grad_y = add_into(grad_y, -grad_cos_y_3 * np.sin(y))
    del grad_cos_y_3
    grad_y = add_into(grad_y, -grad_cos_y_2 * np.sin(y))
    del grad_cos_y_2
    # t6 = np.cos(t5) * np.tanh(x)
    grad_cos_t5 = unbroadcast(grad_t6 * tanh_x_2, y)
    grad_tanh_x_2 = unbroadcast(grad_t6 * cos_t5, x)
    del cos_t5, grad_t6
    grad_x = add_into(grad_x, grad_tanh_x_2 * (1 - tanh_x_2 ** 2))
    del grad_tanh_x_2, tanh_x_2
    grad_t5 = -grad_cos_t5 * np.sin(t5)
    del grad_cos_t5, t5
    # t5 = np.tanh(y) * np.tanh(y)
    grad_tanh_y_4 = grad_t5 * tanh_y_5
    grad_tanh_y_5 = grad_t5 * tanh_y_4
    del grad_t5
    grad_y = add_into(grad_y, grad_tanh_y_5 * (1 - tanh_y_5 ** 2))
    del grad_tanh_y_5, tanh_y_5
    grad_y = add_into(grad_y, grad_tanh_y_4 * (1 - tanh_y_4 ** 2))
    del grad_tanh_y_4, tanh_y_4
    # if np.sum(c) > np.sum(y):
    if sum_c_gt_sum_y:
        # c = np.cos(c) * np.tanh(x)
        grad_cos_c = unbroadcast(grad_c * tanh_x, cos_c)
        grad_tanh_x = unbroadcast(grad_c * cos_c, x)
        c = c_old_59
        grad_x = add_into(grad_x, grad_tanh_x * (1 - tanh_x ** 2))
        grad_c = -grad_cos_c * np.sin(c)
    else:
        # c = np.cos(c) - np.sin(y)
        grad_cos_c_2 = unbroadcast(grad_c, cos_c_2)
        c = c_old_60
        grad_sin_y_2 = unbroadcast(-grad_c, y)
        grad_y = add_into(grad_y, grad_sin_y_2 * np.cos(y))
        grad_c = -grad_cos_c_2 * np.sin(c)
    # h = np.cos(h) + np.tanh(t4)
    h = h_old_70
    del h_old_70
    grad_tanh_t4 = unbroadcast(grad_h, tanh_t4)
    grad_t4 = grad_tanh_t4 * (1 - tanh_t4 ** 2)
    del grad_tanh_t4, tanh_t4
    grad_cos_h = unbroadcast(grad_h, cos_h)
    grad_h = -grad_cos_h * np.sin(h)
    del grad_cos_h
    # t4 = np.tanh(y) + np.sin(c)
    grad_tanh_y_3 = unbroadcast(grad_t4, y)
    grad_sin_c = unbroadcast(grad_t4, sin_c)
    del grad_t4
    grad_c = add_into(grad_c, grad_sin_c * np.cos(c))
    del c, grad_sin_c
    grad_y = add_into(grad_y, grad_tanh_y_3 * (1 - tanh_y_3 ** 2))
    del grad_tanh_y_3, tanh_y_3
    # h = np.sin(h) - np.cos(t3)
    h = h_old_71
    del h_old_71
    grad_cos_t3 = unbroadcast(-grad_h, cos_t3)
    grad_t3 = -grad_cos_t3 * np.sin(t3)
    del grad_cos_t3, t3
    grad_sin_h_2 = unbroadcast(grad_h, sin_h_2)
    grad_h = grad_sin_h_2 * np.cos(h)
    del grad_sin_h_2
    # t3 = np.cos(t2) * np.tanh(y)
    grad_cos_t2 = unbroadcast(grad_t3 * tanh_y_2, cos_t2)
    grad_tanh_y_2 = unbroadcast(grad_t3 * cos_t2, y)
    del cos_t2, grad_t3
    grad_y = add_into(grad_y, grad_tanh_y_2 * (1 - tanh_y_2 ** 2))
    del grad_tanh_y_2, tanh_y_2
    grad_t2 = -grad_cos_t2 * np.sin(t2)
    del grad_cos_t2, t2
    # t2 = np.cos(t1) * np.tanh(y)
    grad_cos_t1 = unbroadcast(grad_t2 * tanh_y, cos_t1)
    grad_tanh_y = unbroadcast(grad_t2 * cos_t1, y)
    del cos_t1, grad_t2
    grad_y = add_into(grad_y, grad_tanh_y * (1 - tanh_y ** 2))
    del grad_tanh_y, tanh_y
    grad_t1 = -grad_cos_t1 * np.sin(t1)
    del grad_cos_t1, t1
    # t1 = np.cos(x) * np.sin(t0)
    grad_cos_x_2 = unbroadcast(grad_t1 * sin_t0, x)
    grad_sin_t0 = unbroadcast(grad_t1 * cos_x_2, sin_t0)
    del cos_x_2, grad_t1, sin_t0
    grad_t0 = grad_sin_t0 * np.cos(t0)
    del grad_sin_t0, t0
    grad_x = add_into(grad_x, -grad_cos_x_2 * np.sin(x))
    del grad_cos_x_2
    # t0 = np.sin(h) + np.sin(x)
    grad_sin_h = unbroadcast(grad_t0, sin_h)
    grad_sin_x_2 = unbroadcast(grad_t0, x)
    del grad_t0
    grad_x = add_into(grad_x, grad_sin_x_2 * np.cos(x))
    del grad_sin_x_2
    grad_h = add_into(grad_h, grad_sin_h * np.cos(h))
    del grad_sin_h, h
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
