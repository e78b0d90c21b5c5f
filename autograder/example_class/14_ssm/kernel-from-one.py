"""ssm_kernel starts the powers at k = 1 (A_bar ** 1 .. A_bar ** L), as if the newest input had already decayed one step: K[0] must be C B_bar.

answers: solution
loses: test_ssm_kernel_example test_ssm_kernel_recurrence
hint: with k starting at 0
"""
# %% ssm_kernel
def ssm_kernel(A_bar, B_bar, C, L):
    powers = A_bar[..., None] ** torch.arange(1, L + 1, dtype=A_bar.dtype, device=A_bar.device)
    return (C * B_bar)[..., None].mul(powers).sum(1)
