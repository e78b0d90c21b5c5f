"""reverse_padded flips whole rows (padding moves to the front), which also breaks bilstm_encode that uses it; stack applies the layers in reverse order.

answers: solution
loses: test_reverse_padded_example test_reverse_padded_edges test_reverse_padded_gradients test_bilstm_encode_shapes test_bilstm_encode_alignment test_bilstm_encode_summary test_bilstm_encode_pytorch test_bilstm_encode_gradients test_stack_plain test_stack_residual test_stack_edges
hint: torch.flip(x, [1]) moves the padding to the front
hint: apply the layers in the order given
hint: each layer adds its own input
hint: builds on your reverse_padded
"""
# %% reverse_padded
def reverse_padded(x, lengths):
    return torch.flip(x, [1])


# %% stack
def stack(x, layers, residual):
    h = x
    for layer in reversed(layers):
        h = layer(h) + h if residual else layer(h)
    return h
