"""sample_tokens returns the most probable token of each row (greedy decoding) instead of drawing one.

answers: solution
loses: test_sample_tokens
hint: torch.multinomial(filter_logits(...).exp(), 1, generator=generator)[:, 0]
"""
# %% sample_tokens
def sample_tokens(logits, generator, temperature=1.0, top_k=None, top_p=None):
    return filter_logits(logits, temperature, top_k, top_p).argmax(dim=-1)
