import math

import numpy as np


def helper(a, b):
    return np.sin(a) * b + a


def twice(a):
    return helper(a, a * 0.5) + helper(b=0.3, a=a)


def pair(a, b):
    return a * b, a - np.tanh(b)


def f(x, y):
    v0 = x
    for _ in range(0):
        v0 = (np.sqrt((x) ** 2 + 1.0)) / ((np.minimum(1.5, x)) ** 2 + 1.0)
    if np.sum(y) > 0:
        v1 = (np.sin(x)) ** 2
    else:
        v1 = np.sqrt((np.where((y) > (1.5), 1.5, y)) ** 2 + 1.0)
    parts = []
    for i in range(2):
        parts.append(helper(np.where((x) > (y), v0, x), np.hypot(1.5, v1)) * (i + 1.0))
    v2 = parts[0] + parts[1]
    v3 = v0 * 1.0
    for i in range(3):
        if np.sum(v3) > 0.18:
            break
        v3 = np.where(((y) / ((v3) ** 2 + 1.0)) > ((v0) * (v2)), np.hypot(v0, x), np.arctan2(y, (v2) ** 2 + 1.0))
    v4 = (v3) / (((np.prod(np.tanh(y), axis=-1, keepdims=True)) if np.sum(np.where((1.5) > (v2), y, v1)) > 0 else ((v0) if np.sum(v1) > 0 else (v0))) ** 2 + 1.0)
    p, q = pair(np.minimum(v0, v1), np.clip(v1, -0.9, 0.8))
    v5 = p * 0.5 + q
    v6 = np.minimum((twice(x)) if np.sum(np.where((v0) > (y), 1.5, v2)) > 0 else (y), x)
    if np.sum(v2) > 0:
        v7 = y
    else:
        v7 = helper(v0, 0.7)
    v8 = x
    n = 0
    while np.sum(v8 * v8) < 20.0 and n < 3:
        v8 = v8 * 1.3 + np.clip(v2, -1.0, np.abs(v5) + 0.1)
        n = n + 1
    if np.sum(v5) > 0:
        v9 = np.cumsum(helper(y, v2), axis=-1)
    else:
        v9 = ((v1) + (x)) * 0.5 + (np.cos(v5))
    if np.sum(v8) > 0:
        v10 = np.clip((v6) * 0.5 + (v8), -1.0, np.abs(v8) + 0.1)
    else:
        v10 = helper(b=0.3, a=(v1) * (x))
    v11 = x
    n = 0
    while np.sum(v11 * v11) < 20.0 and n < 3:
        v11 = v11 * 1.3 + helper(v9, 0.7)
        n = n + 1
    v12 = x
    for _ in range(2):
        v12 = y
    v13 = 0.0
    for row, other in zip(v1, v12):
        v13 = v13 + np.sin(row) * other
    v14 = x
    for _ in range(0):
        v14 = np.sqrt(((v4) if np.sum(v13) > 0 else (v1)) ** 2 + 1.0)
    v15 = (helper(v4, (v2) if np.sum(v8) > 0 else (v11))) + (v1)
    v16 = np.cumprod(np.tanh(np.where((y) > (v3), v15, v8)), axis=0)
    v17 = np.copy(np.maximum(v1, 0.2))
    v17[-1] -= np.tanh(v17[0])
    v17[0] = v17[-1] * 2.0
    parts = []
    for i in range(2):
        parts.append(-(twice(v16)) * (i + 1.0))
    v18 = parts[0] + parts[1]
    v19 = (np.where(((v12) - (v6)) > 0, y, 0.5)) * 0.5 + (np.cumprod(np.tanh(v11), axis=0))
    v20 = x
    for _ in range(0):
        v20 = v16
    if np.sum(v1) > 0:
        v21 = (np.cumsum(v15, axis=-1)) * (np.abs(v20))
    else:
        v21 = helper(b=0.3, a=helper(1.5, 0.7))
    v22 = np.copy(np.exp(0.3 * v0))
    v22[-1] -= np.tanh(v22[0])
    v22[..., ::2] *= 0.5
    v23 = y * 1.0
    for _ in range(2):
        v23 += v6
    v24 = np.prod(np.tanh(v16) + 1.5)
    v25 = np.copy(helper(y, 0.7))
    v25[..., ::2] *= 0.5
    v25[0] = v25[-1] * 2.0
    v26 = y * 1.0
    for _ in range(0):
        v26 += helper(np.exp(0.3 * x), np.clip(v13, -0.9, 0.8))
    v27 = v1 * 1.0
    for i in range(3):
        if np.sum(v27) > -0.85:
            break
        v27 = -(np.where((v7) > 0, v1, 0.5))
    if np.sum(v24) > 0:
        v28 = np.sqrt((v27) ** 2 + 1.0)
    else:
        v28 = np.maximum(np.where((v24) > (1.5), v21, v20), v7)
    if np.sum(v3) > 0:
        v29 = v13
    else:
        v29 = np.max(np.where((v26) > (v27), x, v23), axis=-1, keepdims=True)
    v30 = v29
    v31 = np.min(np.clip((v14) * (v15), -0.9, 0.8), axis=-1)
    if np.sum(v23) > 0:
        v32 = v3
    else:
        v32 = x
    v33 = x
    for _ in range(2):
        v33 = ((v13) * 0.5 + (v18)) / (((v24) * 0.5 + (v19)) ** 2 + 1.0)
    v34 = 0.0
    for i, row in enumerate(v15):
        v34 = v34 + np.sin(row) * (i + 1.0)
    v35 = np.where((v11) > 0, np.maximum(np.max(v3, axis=-1, keepdims=True), np.where((v34) > (v22), v9, v7)), 0.5)
    v36 = x
    n = 0
    while np.sum(v36 * v36) < 20.0 and n < 3:
        v36 = v36 * 1.3 + v34
        n = n + 1
    if np.sum(v1) > 0:
        v37 = helper(b=0.3, a=(v32) * (v0))
    else:
        v37 = np.abs(np.exp(0.3 * v6))
    v38 = np.clip((np.sort(v23, axis=-1)) * 0.5 + (v18), -1.0, np.abs((twice(v32)) / ((helper(v15, 0.7)) ** 2 + 1.0)) + 0.1)
    v39 = x
    n = 0
    while np.sum(v39 * v39) < 20.0 and n < 3:
        v39 = v39 * 1.3 + np.sqrt((v31) ** 2 + 1.0)
        n = n + 1
    return np.sum(v36 + v37 + v38 + v39)
