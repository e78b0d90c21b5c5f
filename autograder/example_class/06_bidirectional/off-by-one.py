"""reverse_padded is off by one: position i takes x[b, l - i] (starting at the first padding position) instead of x[b, l - 1 - i].

answers: solution
loses: test_reverse_padded_example test_reverse_padded_edges test_reverse_padded_gradients test_bilstm_encode_alignment test_bilstm_encode_summary test_bilstm_encode_pytorch test_bilstm_encode_gradients
hint: position i of row b takes x[b, l - 1 - i]
hint: builds on your reverse_padded
"""
# %% reverse_padded
def reverse_padded(x, lengths):
    L = x.shape[1]
    positions = torch.arange(L, device=x.device).expand(x.shape[0], L)
    lengths = lengths.to(x.device).unsqueeze(1)
    source = torch.where(positions < lengths, (lengths - positions).clamp(max=L - 1), positions)
    return x.gather(1, source.unsqueeze(-1).expand_as(x))
