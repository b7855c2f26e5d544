import numpy as np


def f(x, y):
    h = np.sin(x) * np.cos(y)
    c = np.sin(y) * np.cos(x)
    h = np.cos(h) + np.cos(y)
    c = np.sin(c) + np.sin(y)
    t0 = np.cos(y) * np.tanh(h)
    h = np.tanh(h) + np.sin(h)
    h = np.cos(h) * np.cos(t0)
    t1 = np.cos(c) - np.cos(c)
    h = np.cos(h) - np.tanh(y)
    if np.sum(t1) > np.sum(x):
        h = np.sin(h) * np.tanh(x)
    else:
        h = np.tanh(h) * np.tanh(y)
    t2 = np.cos(c) - np.tanh(y)
    h = np.cos(h) + np.cos(y)
    t3 = np.tanh(t2) * np.sin(x)
    h = np.sin(h) * np.cos(x)
    t4 = np.cos(t3) * np.tanh(y)
    h = np.sin(h) + np.tanh(t4)
    if np.sum(y) > np.sum(x):
        h = np.tanh(h) - np.cos(y)
    else:
        h = np.tanh(h) * np.cos(h)
    t5 = np.tanh(c) * np.cos(c)
    t6 = np.cos(t5) * np.tanh(c)
    c = np.cos(c) - np.tanh(t6)
    t7 = np.cos(x) * np.sin(h)
    t8 = np.sin(t7) + np.sin(x)
    t9 = np.sin(h) - np.cos(t8)
    if np.sum(t9) > np.sum(c):
        h = np.cos(h) - np.sin(h)
    else:
        h = np.sin(h) - np.tanh(c)
    c = np.cos(c) * np.cos(x)
    h = np.cos(h) - np.cos(x)
    t10 = np.sin(x) - np.tanh(c)
    h = np.sin(h) + np.sin(t10)
    t11 = np.cos(c) * np.tanh(y)
    t12 = np.sin(y) * np.tanh(y)
    if np.sum(y) > np.sum(t11):
        c = np.cos(c) + np.cos(h)
    else:
        c = np.sin(c) + np.cos(t12)
    t13 = np.tanh(y) - np.sin(c)
    t14 = np.tanh(c) - np.tanh(t13)
    t15 = np.sin(t14) - np.sin(h)
    t16 = np.cos(c) + np.cos(y)
    t17 = np.tanh(t15) - np.sin(h)
    c = np.tanh(c) + np.sin(t16)
    if np.sum(y) > np.sum(x):
        c = np.tanh(c) * np.tanh(t17)
    else:
        c = np.sin(c) + np.sin(h)
    h = np.tanh(h) + np.cos(x)
    t18 = np.cos(x) - np.sin(x)
    c = np.sin(c) * np.sin(t18)
    c = np.sin(c) - np.sin(c)
    c = np.sin(c) * np.tanh(c)
    c = np.cos(c) - np.cos(h)
    if np.sum(h) > np.sum(h):
        c = np.cos(c) + np.sin(h)
    else:
        c = np.cos(c) + np.sin(h)
    c = np.sin(c) + np.sin(y)
    t19 = np.tanh(c) + np.cos(y)
    t20 = np.cos(t19) * np.tanh(x)
    h = np.sin(h) * np.sin(t20)
    c = np.tanh(c) * np.cos(x)
    c = np.sin(c) + np.tanh(x)
    if np.sum(h) > np.sum(x):
        c = np.sin(c) * np.tanh(y)
    else:
        c = np.cos(c) - np.tanh(c)
    h = np.sin(h) - np.cos(h)
    c = np.sin(c) * np.sin(x)
    c = np.sin(c) - np.cos(c)
    t21 = np.sin(x) - np.tanh(h)
    t22 = np.sin(h) + np.sin(t21)
    c = np.tanh(c) + np.tanh(h)
    if np.sum(t22) > np.sum(x):
        h = np.cos(h) - np.sin(c)
    else:
        h = np.tanh(h) - np.tanh(h)
    t23 = np.sin(c) + np.cos(c)
    c = np.sin(c) + np.tanh(t23)
    c = np.tanh(c) * np.sin(c)
    h = np.sin(h) * np.cos(c)
    t24 = np.cos(y) * np.tanh(x)
    c = np.sin(c) - np.cos(c)
    if np.sum(t24) > np.sum(y):
        c = np.tanh(c) + np.tanh(h)
    else:
        c = np.cos(c) * np.tanh(c)
    c = np.cos(c) - np.sin(y)
    t25 = np.cos(c) + np.tanh(c)
    c = np.tanh(c) * np.cos(c)
    c = np.sin(c) * np.tanh(t25)
    t26 = np.tanh(x) + np.sin(h)
    t27 = np.sin(x) * np.cos(c)
    if np.sum(x) > np.sum(t26):
        c = np.tanh(c) * np.sin(t27)
    else:
        c = np.sin(c) * np.sin(y)
    c = np.sin(c) * np.cos(h)
    t28 = np.cos(x) * np.tanh(c)
    t29 = np.sin(t28) - np.cos(h)
    t30 = np.sin(t29) * np.cos(h)
    t31 = np.cos(t30) - np.sin(y)
    t32 = np.tanh(t31) - np.sin(c)
    if np.sum(y) > np.sum(x):
        c = np.cos(c) + np.tanh(t32)
    else:
        c = np.sin(c) + np.tanh(y)
    h = np.cos(h) + np.cos(c)
    h = np.cos(h) - np.tanh(x)
    h = np.tanh(h) - np.cos(y)
    t33 = np.tanh(c) - np.cos(c)
    t34 = np.sin(h) * np.tanh(x)
    t35 = np.sin(c) * np.cos(t33)
    if np.sum(t34) > np.sum(t35):
        c = np.tanh(c) - np.sin(h)
    else:
        c = np.cos(c) * np.cos(y)
    c = np.cos(c) * np.sin(y)
    t36 = np.cos(y) + np.cos(h)
    t37 = np.cos(c) * np.tanh(y)
    t38 = np.cos(c) * np.cos(c)
    t39 = np.cos(y) - np.cos(h)
    t40 = np.tanh(t36) - np.tanh(y)
    if np.sum(y) > np.sum(c):
        h = np.sin(h) * np.cos(t37)
    else:
        h = np.tanh(h) - np.sin(x)
    c = np.cos(c) + np.sin(t38)
    h = np.tanh(h) * np.cos(t39)
    c = np.sin(c) + np.sin(t40)
    t41 = np.tanh(y) * np.tanh(x)
    h = np.sin(h) - np.sin(t41)
    t42 = np.cos(x) * np.sin(h)
    if np.sum(x) > np.sum(t42):
        c = np.tanh(c) + np.tanh(y)
    else:
        c = np.cos(c) + np.cos(y)
    t43 = np.tanh(x) + np.tanh(x)
    t44 = np.tanh(h) - np.cos(t43)
    c = np.sin(c) - np.tanh(t44)
    h = np.tanh(h) + np.tanh(y)
    c = np.tanh(c) + np.cos(x)
    h = np.tanh(h) + np.sin(c)
    return np.sum(h * c)
