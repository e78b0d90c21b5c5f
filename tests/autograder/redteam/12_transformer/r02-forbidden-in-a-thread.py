"""attention_heads hands the work to PyTorch's multi-head attention inside a worker thread.

answers: solution
layer: worker
loses: test_attention_heads_causal test_attention_heads_cross test_attention_heads_example test_attention_heads_gradients test_decoder_block_edges test_decoder_block_gradients test_decoder_block_masks test_decoder_block_torch test_encoder_block_gradients test_encoder_block_padding test_encoder_block_torch test_transformer_encode_gradients test_transformer_encode_torch
says: torch.nn.functional.multi_head_attention_forward
"""
# %% attention_heads
from concurrent.futures import ThreadPoolExecutor

import torch.nn.functional as F


def attention_heads(q, k, v, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, num_heads,
                    key_mask=None, causal=False):
    def run():
        L, S = q.shape[1], k.shape[1]
        causal_mask = torch.ones(L, S, dtype=torch.bool, device=q.device).triu(1) if causal else None
        out, _ = F.multi_head_attention_forward(
            q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1), q.shape[-1], num_heads, in_proj_weight,
            in_proj_bias, None, None, False, 0.0, out_proj_weight, out_proj_bias, training=False,
            key_padding_mask=None if key_mask is None else ~key_mask, need_weights=False, attn_mask=causal_mask)
        return out.transpose(0, 1)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()
