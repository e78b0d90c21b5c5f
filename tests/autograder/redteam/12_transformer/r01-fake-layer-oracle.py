"""A wrong encoder_block (no feed-forward sub-layer), and a fake nn.TransformerEncoderLayer that agrees with it.

answers: solution
layer: checker (the tests' oracles are the checker's own torch.nn, which no answer reaches)
loses: test_encoder_block_gradients test_encoder_block_padding test_encoder_block_torch test_transformer_encode_gradients test_transformer_encode_torch
"""
# %% encoder_block
fake_layer_ = type("TransformerEncoderLayer", (), {"_" + "_init__": lambda self, *a, **k: None,
                                                   "_" + "_call__": lambda self, x, *a, **k: x})
getattr(torch, "nn").TransformerEncoderLayer = fake_layer_


def encoder_block(x, mask, params, num_heads):
    return x  # every sub-layer skipped, as the fake layer does
