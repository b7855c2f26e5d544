import numpy as np


def f(x, y):
    h = np.sin(x) * np.cos(y)
    c = np.sin(y) * np.cos(x)
    t0 = np.sin(h) + np.sin(x)
    t1 = np.cos(x) * np.sin(t0)
    t2 = np.cos(t1) * np.tanh(y)
    t3 = np.cos(t2) * np.tanh(y)
    h = np.sin(h) - np.cos(t3)
    t4 = np.tanh(y) + np.sin(c)
    h = np.cos(h) + np.tanh(t4)
    if np.sum(c) > np.sum(y):
        c = np.cos(c) * np.tanh(x)
    else:
        c = np.cos(c) - np.sin(y)
    t5 = np.tanh(y) * np.tanh(y)
    t6 = np.cos(t5) * np.tanh(x)
    t7 = np.cos(y) * np.cos(y)
    t8 = np.tanh(c) - np.cos(y)
    c = np.cos(c) * np.tanh(t6)
    h = np.cos(h) * np.sin(t7)
    if np.sum(t8) > np.sum(h):
        h = np.cos(h) * np.tanh(c)
    else:
        h = np.sin(h) * np.cos(c)
    h = np.sin(h) - np.sin(h)
    h = np.sin(h) * np.sin(h)
    h = np.sin(h) + np.cos(h)
    h = np.tanh(h) + np.cos(h)
    t9 = np.sin(c) + np.cos(h)
    t10 = np.cos(h) - np.cos(t9)
    if np.sum(t10) > np.sum(h):
        c = np.cos(c) - np.cos(c)
    else:
        c = np.sin(c) + np.sin(x)
    h = np.tanh(h) * np.cos(y)
    t11 = np.cos(c) - np.tanh(x)
    t12 = np.tanh(c) + np.sin(t11)
    h = np.cos(h) * np.tanh(t12)
    t13 = np.sin(c) * np.sin(y)
    h = np.tanh(h) * np.tanh(x)
    if np.sum(t13) > np.sum(h):
        c = np.sin(c) + np.cos(y)
    else:
        c = np.sin(c) + np.sin(h)
    h = np.sin(h) + np.sin(h)
    c = np.cos(c) - np.sin(y)
    t14 = np.tanh(c) - np.tanh(y)
    h = np.cos(h) * np.sin(t14)
    t15 = np.cos(y) + np.tanh(h)
    c = np.cos(c) + np.sin(y)
    if np.sum(t15) > np.sum(h):
        h = np.cos(h) + np.tanh(y)
    else:
        h = np.cos(h) - np.tanh(c)
    t16 = np.cos(h) + np.cos(x)
    t17 = np.cos(t16) + np.tanh(h)
    c = np.sin(c) - np.sin(t17)
    h = np.sin(h) * np.tanh(x)
    h = np.tanh(h) + np.tanh(h)
    t18 = np.tanh(h) * np.cos(y)
    if np.sum(c) > np.sum(x):
        c = np.cos(c) * np.cos(y)
    else:
        c = np.tanh(c) - np.sin(t18)
    c = np.tanh(c) - np.tanh(h)
    t19 = np.sin(h) - np.tanh(c)
    c = np.sin(c) + np.sin(h)
    t20 = np.tanh(t19) * np.cos(x)
    c = np.sin(c) + np.cos(t20)
    h = np.tanh(h) * np.sin(x)
    if np.sum(y) > np.sum(c):
        h = np.cos(h) - np.cos(c)
    else:
        h = np.cos(h) * np.tanh(h)
    h = np.cos(h) * np.cos(h)
    c = np.tanh(c) * np.tanh(y)
    t21 = np.tanh(x) - np.tanh(h)
    h = np.cos(h) * np.tanh(t21)
    t22 = np.cos(x) * np.tanh(y)
    h = np.sin(h) - np.sin(y)
    if np.sum(t22) > np.sum(c):
        h = np.cos(h) * np.cos(c)
    else:
        h = np.tanh(h) + np.tanh(h)
    t23 = np.cos(y) * np.cos(c)
    t24 = np.cos(h) + np.tanh(h)
    c = np.cos(c) - np.sin(y)
    t25 = np.sin(x) - np.tanh(t23)
    t26 = np.sin(c) + np.cos(t24)
    t27 = np.cos(t25) * np.sin(t26)
    if np.sum(t27) > np.sum(y):
        c = np.tanh(c) - np.tanh(c)
    else:
        c = np.cos(c) - np.cos(c)
    t28 = np.sin(x) - np.cos(x)
    c = np.tanh(c) * np.sin(t28)
    t29 = np.cos(c) * np.tanh(c)
    t30 = np.sin(t29) - np.tanh(c)
    h = np.sin(h) * np.cos(y)
    c = np.sin(c) - np.sin(t30)
    if np.sum(y) > np.sum(x):
        c = np.cos(c) + np.tanh(y)
    else:
        c = np.sin(c) - np.sin(x)
    h = np.cos(h) + np.sin(x)
    h = np.sin(h) - np.cos(y)
    t31 = np.cos(x) * np.tanh(x)
    c = np.tanh(c) * np.cos(h)
    c = np.sin(c) - np.cos(x)
    h = np.cos(h) - np.sin(t31)
    if np.sum(x) > np.sum(c):
        h = np.cos(h) + np.sin(y)
    else:
        h = np.tanh(h) - np.tanh(c)
    c = np.cos(c) * np.cos(c)
    c = np.sin(c) + np.cos(c)
    c = np.cos(c) - np.cos(h)
    h = np.tanh(h) * np.cos(h)
    t32 = np.sin(h) + np.cos(h)
    c = np.sin(c) - np.sin(t32)
    if np.sum(y) > np.sum(c):
        c = np.sin(c) - np.cos(y)
    else:
        c = np.tanh(c) - np.tanh(h)
    t33 = np.cos(y) * np.sin(y)
    c = np.sin(c) + np.tanh(t33)
    h = np.sin(h) - np.cos(x)
    t34 = np.cos(h) + np.sin(x)
    h = np.cos(h) * np.tanh(x)
    c = np.sin(c) + np.tanh(t34)
    if np.sum(c) > np.sum(h):
        h = np.sin(h) + np.tanh(h)
    else:
        h = np.cos(h) * np.sin(c)
    h = np.sin(h) * np.sin(h)
    h = np.sin(h) * np.tanh(c)
    c = np.tanh(c) * np.tanh(c)
    h = np.tanh(h) + np.cos(c)
    c = np.cos(c) + np.sin(y)
    c = np.sin(c) * np.cos(h)
    if np.sum(x) > np.sum(y):
        c = np.cos(c) + np.tanh(y)
    else:
        c = np.sin(c) * np.sin(h)
    t35 = np.sin(c) + np.tanh(y)
    h = np.tanh(h) + np.tanh(y)
    h = np.sin(h) * np.tanh(t35)
    h = np.sin(h) * np.sin(c)
    t36 = np.tanh(y) - np.sin(c)
    t37 = np.tanh(x) * np.cos(t36)
    if np.sum(t37) > np.sum(h):
        h = np.tanh(h) * np.sin(x)
    else:
        h = np.sin(h) - np.cos(x)
    t38 = np.tanh(y) * np.cos(c)
    t39 = np.cos(y) - np.tanh(t38)
    h = np.tanh(h) - np.cos(t39)
    t40 = np.cos(x) + np.cos(c)
    t41 = np.tanh(c) * np.tanh(c)
    t42 = np.sin(x) + np.sin(h)
    if np.sum(t40) > np.sum(t41):
        c = np.tanh(c) * np.cos(t42)
    else:
        c = np.sin(c) - np.tanh(y)
    h = np.sin(h) + np.tanh(c)
    t43 = np.tanh(h) * np.cos(y)
    t44 = np.sin(t43) + np.sin(x)
    c = np.tanh(c) * np.sin(y)
    t45 = np.cos(t44) * np.sin(c)
    t46 = np.sin(y) - np.cos(t45)
    if np.sum(t46) > np.sum(c):
        c = np.sin(c) + np.tanh(h)
    else:
        c = np.tanh(c) * np.sin(h)
    c = np.cos(c) + np.sin(x)
    c = np.tanh(c) - np.tanh(h)
    h = np.cos(h) + np.cos(h)
    h = np.sin(h) - np.tanh(c)
    h = np.tanh(h) - np.tanh(h)
    t47 = np.tanh(h) * np.cos(c)
    if np.sum(t47) > np.sum(x):
        h = np.cos(h) + np.cos(x)
    else:
        h = np.tanh(h) + np.sin(x)
    t48 = np.cos(x) * np.cos(x)
    t49 = np.sin(t48) + np.cos(h)
    h = np.cos(h) * np.tanh(h)
    c = np.cos(c) - np.sin(t49)
    h = np.sin(h) * np.tanh(x)
    h = np.sin(h) + np.cos(c)
    if np.sum(x) > np.sum(h):
        h = np.tanh(h) + np.sin(c)
    else:
        h = np.tanh(h) + np.sin(h)
    t50 = np.tanh(h) - np.sin(c)
    t51 = np.cos(y) + np.sin(t50)
    c = np.sin(c) * np.cos(t51)
    t52 = np.sin(y) - np.cos(c)
    c = np.tanh(c) + np.tanh(y)
    t53 = np.cos(y) + np.cos(t52)
    if np.sum(t53) > np.sum(h):
        h = np.cos(h) * np.cos(h)
    else:
        h = np.cos(h) + np.tanh(y)
    c = np.sin(c) - np.cos(y)
    t54 = np.tanh(y) + np.cos(c)
    c = np.cos(c) + np.sin(t54)
    t55 = np.sin(y) - np.tanh(y)
    t56 = np.tanh(t55) - np.tanh(y)
    t57 = np.tanh(x) - np.sin(t56)
    if np.sum(t57) > np.sum(y):
        h = np.tanh(h) * np.cos(c)
    else:
        h = np.cos(h) - np.cos(y)
    t58 = np.tanh(x) - np.cos(h)
    t59 = np.sin(t58) + np.cos(h)
    c = np.tanh(c) - np.cos(t59)
    t60 = np.cos(y) * np.cos(c)
    t61 = np.sin(x) - np.tanh(t60)
    t62 = np.cos(t61) - np.cos(h)
    if np.sum(t62) > np.sum(x):
        h = np.sin(h) - np.cos(x)
    else:
        h = np.tanh(h) * np.cos(y)
    t63 = np.tanh(h) + np.sin(x)
    c = np.sin(c) + np.tanh(t63)
    t64 = np.sin(c) * np.sin(y)
    c = np.tanh(c) + np.sin(t64)
    c = np.tanh(c) - np.tanh(c)
    h = np.cos(h) * np.tanh(h)
    if np.sum(c) > np.sum(c):
        h = np.sin(h) * np.cos(h)
    else:
        h = np.tanh(h) + np.cos(c)
    h = np.sin(h) - np.cos(h)
    c = np.cos(c) - np.sin(h)
    t65 = np.sin(c) - np.cos(h)
    c = np.tanh(c) + np.cos(x)
    t66 = np.tanh(t65) + np.cos(h)
    t67 = np.cos(t66) - np.sin(c)
    if np.sum(t67) > np.sum(h):
        c = np.sin(c) + np.tanh(x)
    else:
        c = np.cos(c) * np.sin(h)
    h = np.sin(h) - np.cos(h)
    h = np.tanh(h) * np.cos(c)
    c = np.sin(c) - np.cos(c)
    h = np.tanh(h) + np.cos(h)
    c = np.tanh(c) + np.tanh(h)
    h = np.sin(h) + np.cos(y)
    return np.sum(h * c)
