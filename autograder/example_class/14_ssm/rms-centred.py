"""rms_norm subtracts each vector's mean before dividing, as chapter 11's layer norm does: RMSNorm divides x itself by its root mean square.

answers: solution
loses: test_rms_norm test_rms_norm_gradients
hint: no mean is subtracted
"""
# %% rms_norm
def rms_norm(x, weight, eps=1e-5):
    centred = x - x.mean(dim=-1, keepdim=True)
    return centred / torch.sqrt((centred * centred).mean(dim=-1, keepdim=True) + eps) * weight
