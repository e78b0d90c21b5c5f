"""An honest gate_update built with map() and a thread pool over allowed calls: every point.

answers: solution
loses: nothing
"""
# %% gate_update
from concurrent.futures import ThreadPoolExecutor


def gate_update(s, x, g):
    with ThreadPoolExecutor(1) as pool:
        kept, written = pool.map(torch.mul, [1 - g, g], [s, x])
    return sum(map(torch.add, [kept], [written]))
