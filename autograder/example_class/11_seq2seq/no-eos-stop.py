"""greedy_decode never stops at eos; beam_search drops the hypotheses still live after max_len; layer_norm uses the unbiased variance (torch.var's default), which add_and_norm inherits.

answers: solution
loses: test_greedy_decode_example test_greedy_decode_stops test_beam_search_example test_beam_search_length_norm test_beam_search_stops test_layer_norm_torch test_layer_norm_edges test_add_and_norm
hint: stop right after writing eos
hint: after max_len steps the hypotheses still in the beam are finished too
hint: the biased variance
hint: builds on your layer_norm
"""
# %% greedy_decode
def greedy_decode(step, bos, eos, max_len):
    tokens = []
    for _ in range(max_len):
        tokens.append(int(step([bos] + tokens).argmax()))
    return tokens


# %% beam_search
def beam_search(step, bos, eos, beam_size, max_len, alpha=0.0):
    live, finished = [([], 0.0)], []
    for _ in range(max_len):
        extensions = [(tokens + [token], score + log_p) for tokens, score in live
                      for token, log_p in enumerate(step([bos, *tokens]).tolist())]
        kept = sorted(extensions, key=lambda h: h[1], reverse=True)[:beam_size]
        finished += [h for h in kept if h[0][-1] == eos]
        live = [h for h in kept if h[0][-1] != eos]
        if not live:
            break
    return sorted(finished, key=lambda h: h[1] / len(h[0]) ** alpha, reverse=True)[:beam_size]


# %% layer_norm
def layer_norm(x, gamma, beta, eps=1e-5):
    return (x - x.mean(dim=-1, keepdim=True)) / torch.sqrt(x.var(dim=-1, keepdim=True) + eps) * gamma + beta
