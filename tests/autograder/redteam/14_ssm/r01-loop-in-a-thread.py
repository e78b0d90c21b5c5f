"""linear_scan runs its loop over t in a worker thread, where the counting mode of the calling thread does not reach (function modes are per thread): the answer worker counts the thread's calls too.

answers: solution
layer: worker
loses: test_linear_scan_calls test_selective_scan_calls
says: A Python loop over t
"""
# %% linear_scan
from concurrent.futures import ThreadPoolExecutor


def linear_scan(a, b):
    def run():
        h, states = torch.zeros_like(b[:, 0]), []
        for t in range(a.shape[1]):
            h = a[:, t] * h + b[:, t]
            states.append(h)
        return torch.stack(states, dim=1)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()
