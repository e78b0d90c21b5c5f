"""sample_tokens saves its generator's state and restores it after drawing, so every call with the same generator draws the same numbers again (generation then repeats itself).

answers: solution
loses: test_sample_tokens
hint: draw with the generator you are given and let it advance
"""
# %% sample_tokens
def sample_tokens(logits, generator, temperature=1.0, top_k=None, top_p=None):
    state = generator.get_state()
    probabilities = filter_logits(logits, temperature, top_k, top_p).exp()
    tokens = torch.multinomial(probabilities, 1, generator=generator)[:, 0]
    generator.set_state(state)
    return tokens
