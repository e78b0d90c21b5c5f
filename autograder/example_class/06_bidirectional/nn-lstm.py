"""bilstm_encode copies the weights into torch.nn.LSTM(bidirectional=True) and runs it on the packed batch (forbidden).

answers: solution
loses: test_bilstm_encode_shapes test_bilstm_encode_alignment test_bilstm_encode_summary test_bilstm_encode_pytorch test_bilstm_encode_gradients
hint: none
"""
# %% bilstm_encode
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


def bilstm_encode(x, lengths, params_fwd, params_bwd):
    K = params_fwd[1].shape[1]
    lstm = torch.nn.LSTM(x.shape[-1], K, batch_first=True, bidirectional=True).to(x.device, x.dtype)
    with torch.no_grad():
        for mine, given in zip(lstm.all_weights, [params_fwd, params_bwd]):
            for p, q in zip(mine, given):
                p.copy_(q)
    packed, (h, _) = lstm(pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False))
    o, _ = pad_packed_sequence(packed, batch_first=True, total_length=x.shape[1])
    return o, torch.cat([h[0], h[1]], dim=-1)
