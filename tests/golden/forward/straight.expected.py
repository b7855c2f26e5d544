def jvp_straight(x, w, tangent_w):
    # h = np.tanh(x @ w)
    x_at_w = x @ w
    tangent_x_at_w = np.matmul(x, tangent_w)
    h = np.tanh(x_at_w)
    tangent_h = tangent_x_at_w * (1 - h ** 2)
    # return np.sum(h ** 2)
    h_sq = h ** 2
    tangent_h_sq = tangent_h * 2 * h
    straight_value = np.sum(h_sq)
    tangent_straight_value = np.sum(tangent_h_sq)
    return straight_value, tangent_straight_value
