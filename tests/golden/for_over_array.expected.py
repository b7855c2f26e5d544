def grad_for_over_array(xs):
    total = 0.0
    # for row in xs:
    row_sq_stack = []
    row_stack = []
    for i in range(len(xs)):
        # for row in xs:
        row = xs[i]
        row_stack.append(row)
        # total = total + np.sum(row ** 2)
        row_sq = row ** 2
        row_sq_stack.append(shape_only(row_sq))
        total = total + np.sum(row_sq)
    # return total
    for_over_array_value = total
    grad_for_over_array_value = scalar_seed(for_over_array_value)
    # return total
    grad_total = grad_for_over_array_value
    # for row in xs:
    grad_xs = zeros_like_grad(xs)
    for i in reversed(range(len(xs))):
        row_sq = row_sq_stack.pop()
        row = row_stack.pop()
        # total = total + np.sum(row ** 2)
        grad_row_sq = unreduce(grad_total, row_sq)
        grad_row = grad_row_sq * 2 * row
        # for row in xs:
        grad_xs[i] = grad_xs[i] + grad_row
    return as_gradient(grad_xs, xs)
