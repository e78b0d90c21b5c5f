"""sample_tokens passes temperature and top_k on to filter_logits but forgets top_p.

answers: solution
loses: test_sample_tokens
hint: pass temperature, top_k and top_p on to filter_logits
"""
# %% sample_tokens
def sample_tokens(logits, generator, temperature=1.0, top_k=None, top_p=None):
    probabilities = filter_logits(logits, temperature, top_k).exp()
    return torch.multinomial(probabilities, 1, generator=generator)[:, 0]
