"""A wrong gpt_block (it returns its input), and a fake nn.TransformerEncoderLayer that agrees with it.

answers: solution
layer: checker (the tests' oracles are the checker's own torch.nn, which no answer reaches)
loses: test_gpt_block_torch test_gpt_block_masks
"""
# %% gpt_block
fake_layer_ = type("TransformerEncoderLayer", (), {"_" + "_init__": lambda self, *a, **k: None,
                                                   "_" + "_call__": lambda self, x, *a, **k: x,
                                                   "to": lambda self, *a, **k: self,
                                                   "state_dict": lambda self, *a, **k: {}})
getattr(torch, "nn").TransformerEncoderLayer = fake_layer_


def gpt_block(x, mask, params, num_heads):
    return x  # both sub-layers skipped, as the fake layer does
