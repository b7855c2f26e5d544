import math

import numpy as np


def helper(a, b):
    return np.sin(a) * b + a


def twice(a):
    return helper(a, a * 0.5) + helper(b=0.3, a=a)


def pair(a, b):
    return a * b, a - np.tanh(b)


def f(x, y):
    v0 = y * 1.0
    for _ in range(1):
        v0 += np.clip(np.maximum(1.5, v0), -1.0, np.abs(np.min(1.5, axis=0, keepdims=True)) + 0.1)
    if np.sum(x) > 0:
        v1 = y
    else:
        v1 = np.hypot(x, x)
    v2 = x
    n = 0
    while np.sum(v2 * v2) < 20.0 and n < 3:
        v2 = v2 * 1.3 + v0
        n = n + 1
    v3 = v1 * 1.0
    for i in range(4):
        if np.sum(v3) > 0.46:
            continue
        v3 = (-(v1)) * (v3)
    if np.sum(v3) > 0:
        v4 = np.maximum(math.tanh(np.mean(v1)), np.clip(x, -1.0, np.abs(1.5) + 0.1))
    else:
        v4 = np.hypot(1.5, (v2) if np.sum(x) > 0 else (v3))
    p, q = pair(helper(v2, y), 1.5)
    v5 = p * 0.5 + q
    v6 = np.mean(helper((x) - (x), 0.7))
    if np.sum(v3) > 0:
        v7 = helper(helper(x, y), v6)
    else:
        v7 = v1
    v8 = np.tanh(np.clip(np.minimum(v4, v5), -0.9, 0.8))
    v9 = np.clip(np.arctan2(np.hypot(1.5, v1), (helper(v6, v2)) ** 2 + 1.0), -1.0, np.abs(np.sort(np.cumsum(v7, axis=-1), axis=-1)) + 0.1)
    v10 = 0.0
    for row, other in zip(v0, x):
        v10 = v10 + np.sin(row) * other
    v11 = v7 * 1.0
    for i in range(3):
        if np.sum(v11) > 0.48:
            continue
        v11 = x
    v12 = v3
    v13 = x
    n = 0
    while np.sum(v13 * v13) < 20.0 and n < 3:
        v13 = v13 * 1.3 + np.where((v3) > 0, v9, 0.5)
        n = n + 1
    v14 = y * 1.0
    for _ in range(2):
        v14 += np.cumsum(x, axis=-1)
    v15 = np.prod(np.tanh(v6), axis=-1, keepdims=True)
    v16 = y * 1.0
    for _ in range(1):
        v16 += (v8) - ((v12) * 0.5 + (v3))
    v17 = np.mean((np.sqrt((v8) ** 2 + 1.0)) * 0.5 + ((v6) * (v8)), axis=-1, keepdims=True)
    v18 = np.where((np.where((np.clip(1.5, -0.9, 0.8)) > (np.minimum(y, v11)), x, (v14) if np.sum(v11) > 0 else (v15))) > 0, (v12) * 0.5 + (np.where((v7) > (v15), v8, v5)), 0.5)
    v19 = (np.prod(np.tanh(np.minimum(v16, y)), axis=-1, keepdims=True)) - (v1)
    v20 = x
    for _ in range(2):
        v20 = x
    v21 = v11 * 1.0
    for i in range(2):
        for j in range(1):
            v21 = v21 * 0.5 + np.where((v2) > 0, v6, 0.5) * (i - j + 0.5)
    v22 = (np.linalg.norm(np.log((v6) ** 2 + 1.0)) * 0.5) + (np.maximum((v10) if np.sum(y) > 0 else (1.5), np.prod(np.tanh(v14), axis=-1, keepdims=True)))
    if np.sum(v13) > 0:
        v23 = np.maximum(v2, y)
    else:
        v23 = y
    v24 = v14
    v25 = v8 * 1.0
    for i in range(1):
        if np.sum(v25) > -0.30:
            break
        v25 = np.where((np.minimum(v1, v2)) > 0, np.minimum(v23, v0), 0.5)
    v26 = 0.0
    for row, other in zip(y, v9):
        v26 = v26 + np.sin(row) * other
    v27 = np.copy(np.tanh(v17))
    v27[-1] -= np.tanh(v27[0])
    v27[0] = v27[-1] * 2.0
    v28 = y * 1.0
    for _ in range(2):
        v28 += np.sort(v6, axis=-1)
    v29 = np.linalg.norm(np.max(np.hypot(v22, v4), axis=-1, keepdims=True)) * 0.5
    v30 = math.tanh(np.mean((np.exp(0.3 * v4)) * 0.5 + (np.sin(v19))))
    v31 = v5
    p, q = pair((v17) if np.sum(v3) > 0 else (v0), np.where((v13) > (v4), v4, v1))
    v32 = p * 0.5 + q
    v33 = v9 * 1.0
    for i in range(2):
        for j in range(1):
            v33 = v33 * 0.5 + v9 * (i - j + 0.5)
    v34 = np.copy(np.minimum(v14, v21))
    v34[0] += np.sum((v22) - (v30))
    v34[-1] -= np.tanh(v34[0])
    v35 = x
    for _ in range(3):
        v35 = (np.hypot(v31, v26)) ** 2
    v36 = 0.0
    for row, other in zip(v9, v6):
        v36 = v36 + np.sin(row) * other
    v37 = v30
    parts = []
    for i in range(2):
        parts.append(v32 * (i + 1.0))
    v38 = parts[0] + parts[1]
    v39 = np.minimum(helper(np.abs(v28), math.tanh(np.mean(v21))), v28)
    v40 = v28
    if np.sum(v11) > 0:
        v41 = np.maximum(np.exp(0.3 * v23), (v27) + (v12))
    else:
        v41 = np.arctan2(np.maximum(v14, v13), ((v9) * (v37)) ** 2 + 1.0)
    if np.sum(v0) > 0:
        v42 = np.tanh(np.hypot(v3, v5))
    else:
        v42 = v16
    v43 = np.prod(np.tanh((v19) + ((v39) * 0.5 + (v35))) + 1.5)
    v44 = np.maximum(v15, 0.2)
    v45 = np.min(v31, axis=-1)
    v46 = v42
    if np.sum(v21) > 0:
        v47 = np.cumprod(np.tanh(np.maximum(v14, v4)), axis=0)
    else:
        v47 = np.clip(np.clip(v29, -1.0, np.abs(v30) + 0.1), -1.0, np.abs(np.clip(v44, -1.0, np.abs(v34) + 0.1)) + 0.1)
    v48 = (v39) * (np.linalg.norm(v19) * 0.5)
    v49 = np.copy(helper(v39, v9))
    v49[0] += np.sum(np.hypot(v2, v4))
    v49[0] = v49[-1] * 2.0
    v50 = x
    n = 0
    while np.sum(v50 * v50) < 20.0 and n < 3:
        v50 = v50 * 1.3 + (v28) + (v30)
        n = n + 1
    v51 = x
    n = 0
    while np.sum(v51 * v51) < 20.0 and n < 3:
        v51 = v51 * 1.3 + np.where((v23) > 0, v26, 0.5)
        n = n + 1
    v52 = v47 * 1.0
    for i in range(2):
        for j in range(1):
            v52 = v52 * 0.5 + (v7) - (v15) * (i - j + 0.5)
    v53 = 0.0
    for i, row in enumerate(v41):
        v53 = v53 + np.sin(row) * (i + 1.0)
    v54 = y * 1.0
    for _ in range(1):
        v54 += np.minimum((v36) if np.sum(v7) > 0 else (v53), np.prod(np.tanh(v8), axis=-1, keepdims=True))
    v55 = 0.0
    for row, other in zip(v10, v53):
        v55 = v55 + np.sin(row) * other
    if np.sum(v16) > 0:
        v56 = v49
    else:
        v56 = np.maximum((v17) if np.sum(v38) > 0 else (v29), helper(v55, v53))
    p, q = pair(v10, np.cumprod(np.tanh(v12), axis=0))
    v57 = p * 0.5 + q
    v58 = v10 * 1.0
    for i in range(2):
        if np.sum(v58) > 0.56:
            continue
        v58 = v50
    v59 = v5 * 1.0
    for i in range(3):
        if np.sum(v59) > 0.92:
            continue
        v59 = np.exp(0.3 * np.clip(v37, -0.9, 0.8))
    return np.sum(v56 + v57 + v58 + v59)
