def jvp_return_in_loop(x, tangent_x):
    returned = False
    # acc = x
    acc = x
    tangent_acc = tangent_x
    for _ in range(10):
        # acc = acc * 1.1
        acc_times_c = acc * 1.1
        tangent_acc_times_c = tangent_acc * 1.1
        acc = acc_times_c
        tangent_acc = tangent_acc_times_c
        if np.sum(acc) > 5.0:
            # return np.sum(acc * x)
            acc_times_x = acc * x
            tangent_acc_times_x = tangent_acc * x + acc * tangent_x
            result = np.sum(acc_times_x)
            tangent_result = np.sum(tangent_acc_times_x)
            returned = True
            break
    if not returned:
        # return np.sum(acc)
        result = np.sum(acc)
        tangent_result = np.sum(tangent_acc)
    # return np.sum(acc)
    return_in_loop_value = result
    tangent_return_in_loop_value = tangent_result
    return return_in_loop_value, tangent_return_in_loop_value
