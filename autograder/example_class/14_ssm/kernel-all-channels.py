"""ssm_kernel sums over the channels as well as the states, so every channel gets the same kernel (the sum of all of theirs).

answers: solution
loses: test_ssm_kernel_recurrence
hint: each channel d has its own kernel K[d]
"""
# %% ssm_kernel
def ssm_kernel(A_bar, B_bar, C, L):
    powers = A_bar[..., None] ** torch.arange(L, dtype=A_bar.dtype, device=A_bar.device)
    total = torch.einsum("dn,dnl->l", C * B_bar, powers)
    return total.expand(A_bar.shape[0], L)
