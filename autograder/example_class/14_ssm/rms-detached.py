"""rms_norm computes the root mean square from x.detach(), so its values are right but no gradient flows through the norm.

answers: solution
loses: test_rms_norm_gradients
hint: the root mean square depends on x too
"""
# %% rms_norm
def rms_norm(x, weight, eps=1e-5):
    rms = torch.sqrt(x.detach().pow(2).mean(dim=-1, keepdim=True) + eps)
    return x / rms * weight
