import math

import numpy as np


def helper(a, b):
    return np.sin(a) * b + a


def twice(a):
    return helper(a, a * 0.5) + helper(b=0.3, a=a)


def pair(a, b):
    return a * b, a - np.tanh(b)


def f(x, y):
    v0 = np.exp(0.3 * np.cumprod(np.tanh(np.sqrt((1.5) ** 2 + 1.0)), axis=0))
    v1 = np.sum(np.arctan2(np.where((1.5) > 0, v0, 0.5), (np.where((1.5) > 0, v0, 0.5)) ** 2 + 1.0), axis=0)
    v2 = (np.sin(y)) * (1.5)
    parts = []
    for i in range(2):
        parts.append((np.arctan2(v0, (v2) ** 2 + 1.0)) / (((y) / ((v1) ** 2 + 1.0)) ** 2 + 1.0) * (i + 1.0))
    v3 = parts[0] + parts[1]
    if np.sum(v1) > 0:
        v4 = np.abs(np.maximum(1.5, v0))
    else:
        v4 = (np.where((v3) > (v1), v1, v3)) / ((v0) ** 2 + 1.0)
    v5 = (helper(np.maximum(v4, v2), np.where((y) > 0, v3, 0.5))) if np.sum((math.tanh(np.mean(x))) * 0.5 + ((v0) ** 2)) > 0 else (np.sqrt((np.tanh(x)) ** 2 + 1.0))
    parts = []
    for i in range(2):
        parts.append(x * (i + 1.0))
    v6 = parts[0] + parts[1]
    v7 = np.mean(x)
    if np.sum(v0) > 0:
        v8 = np.cos(math.tanh(np.mean(x)))
    else:
        v8 = np.tanh(v7)
    v9 = np.copy(np.min(x, axis=0, keepdims=True))
    v9[-1] -= np.tanh(v9[0])
    v9[..., ::2] *= 0.5
    v10 = 1.5
    v11 = v7
    v12 = np.maximum(np.minimum((v8) * (x), np.cos(y)), 0.2)
    if np.sum(v1) > 0:
        v13 = (np.max(v0, axis=-1, keepdims=True)) + ((v9) if np.sum(v6) > 0 else (v11))
    else:
        v13 = (v11) * (v0)
    v14 = y * 1.0
    for _ in range(0):
        v14 += v5
    v15 = x
    for _ in range(0):
        v15 = helper(np.cumprod(np.tanh(v4), axis=0), np.where((x) > (1.5), 1.5, y))
    v16 = (((v9) if np.sum(v7) > 0 else (v9)) + (np.minimum(v1, v1))) - (np.clip((v11) + (v13), -1.0, np.abs((v0) if np.sum(x) > 0 else (v7)) + 0.1))
    v17 = np.max(np.min(v16, axis=0, keepdims=True))
    if np.sum(v12) > 0:
        v18 = v9
    else:
        v18 = (v17) ** 2
    v19 = np.hypot(v17, np.hypot(np.max(v2, axis=-1, keepdims=True), np.prod(np.tanh(v13), axis=-1, keepdims=True)))
    if np.sum(v11) > 0:
        v20 = helper(twice(v6), np.hypot(v0, v16))
    else:
        v20 = ((v11) * (v0)) - (np.clip(v18, -1.0, np.abs(y) + 0.1))
    v21 = x
    for _ in range(2):
        v21 = np.clip(helper(v1, 0.7), -1.0, np.abs(1.5) + 0.1)
    if np.sum(v8) > 0:
        v22 = helper(v3, np.minimum(v9, 1.5))
    else:
        v22 = np.max(np.minimum(v21, v3), axis=-1, keepdims=True)
    if np.sum(y) > 0:
        v23 = np.hypot(np.clip(v13, -1.0, np.abs(v9) + 0.1), np.cumprod(np.tanh(v0), axis=0))
    else:
        v23 = (np.cumprod(np.tanh(v10), axis=0)) * 0.5 + ((v8) + (v12))
    v24 = v12 * 1.0
    for i in range(2):
        for j in range(1):
            v24 = v24 * 0.5 + np.sqrt((v21) ** 2 + 1.0) * (i - j + 0.5)
    v25 = 0.0
    for i, row in enumerate(v10):
        v25 = v25 + np.sin(row) * (i + 1.0)
    if np.sum(v15) > 0:
        v26 = math.tanh(np.mean((v2) if np.sum(x) > 0 else (v17)))
    else:
        v26 = np.where(((v22) * 0.5 + (v0)) > (np.where((v24) > (v19), v19, v0)), np.clip(v8, -1.0, np.abs(v12) + 0.1), (v0) + (v17))
    v27 = v22
    v28 = helper(b=0.3, a=(v13) * (helper(v2, x)))
    v29 = x
    n = 0
    while np.sum(v29 * v29) < 20.0 and n < 3:
        v29 = v29 * 1.3 + np.tanh(v22)
        n = n + 1
    v30 = 0.0
    for row, other in zip(v11, v17):
        v30 = v30 + np.sin(row) * other
    v31 = np.copy(helper(v2, v14))
    v31[0] = v31[-1] * 2.0
    v31[0] += np.sum(twice(1.5))
    v32 = np.log((np.where(((v22) - (v21)) > (v20), v27, np.maximum(v16, v27))) ** 2 + 1.0)
    v33 = np.clip(v15, -1.0, np.abs(np.log((np.maximum(v21, v9)) ** 2 + 1.0)) + 0.1)
    parts = []
    for i in range(2):
        parts.append(np.linalg.norm(np.maximum(v19, v15)) * 0.5 * (i + 1.0))
    v34 = parts[0] + parts[1]
    v35 = np.hypot(np.cumsum(np.clip(v16, -1.0, np.abs(v32) + 0.1), axis=-1), np.where((helper(v20, v26)) > 0, (v18) * (v22), 0.5))
    v36 = x
    for _ in range(0):
        v36 = v8
    parts = []
    for i in range(2):
        parts.append(np.arctan2(np.maximum(v13, 0.2), (np.where((v16) > (v28), v7, v21)) ** 2 + 1.0) * (i + 1.0))
    v37 = parts[0] + parts[1]
    parts = []
    for i in range(2):
        parts.append(-(-(v24)) * (i + 1.0))
    v38 = parts[0] + parts[1]
    parts = []
    for i in range(2):
        parts.append(v10 * (i + 1.0))
    v39 = parts[0] + parts[1]
    return np.sum(v36 + v37 + v38 + v39)
