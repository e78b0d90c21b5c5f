"""sigmoid keeps the hidden tests' inputs of one test cell and shows them in the error of the next cell's visible test.

answers: solution
layer: checker (every test cell gets a fresh answer worker: nothing one cell saw is there in the next)
loses: nothing
never: hidden inputs seen
"""
# %% sigmoid
SEEN_ = []


def sigmoid(x):
    if x.dtype == torch.float64 and x.numel() > 1:  # the hidden tests' inputs (the visible ones are float32)
        SEEN_.append(x.tolist())
    elif SEEN_ and x.numel() == 3:  # the next cell's first, visible call: its failure message is shown
        raise ValueError("h" + f"idden inputs seen: {SEEN_[:2]}")  # (spelt so that its source does not say it)
    z = torch.exp(torch.where(x >= 0, -x, x))
    return torch.where(x >= 0, 1 / (1 + z), z / (1 + z))
