"""CUDA graphs of the hand-written recurrent layers: the same outputs and gradients as the loops they replay,
whatever the length (padded to a bucket); the step functions are put back after recording."""
import pytest
import torch

from seqmodels.layers import gated, recurrent
from seqmodels.models.recurrent_layer import Recurrent
from seqmodels.layers.gated import lstm_encode
from seqmodels.training.cuda_graphs import compiled_steps, replay
from tests.conftest import NO_GPU


def test_compiled_steps_puts_the_course_steps_back():
    before = gated.lstm_step, gated.gru_step, recurrent.rnn_step
    with pytest.raises(RuntimeError), compiled_steps():
        assert gated.lstm_step is not before[0]
        raise RuntimeError("recording failed")
    assert (gated.lstm_step, gated.gru_step, recurrent.rnn_step) == before


@pytest.mark.skipif(not torch.cuda.is_available(), reason=NO_GPU)
@pytest.mark.parametrize("cell", ["elman", "lstm", "gru"])
def test_graphed_layer_matches_the_loops_in_outputs_and_gradients(cell):
    torch.manual_seed(0)
    layer = Recurrent(3, 8, cell=cell, hand_written=True).cuda()
    graphed = Recurrent(3, 8, cell=cell, hand_written=True).cuda()
    graphed.load_state_dict(layer.state_dict())
    graphed.use_cuda_graphs(bucket=8)
    for lengths in ([5, 2, 3], [7, 1, 4], [11, 9, 2]):  # one bucket twice (width 8), then a new one (16)
        x = torch.randn(3, max(lengths), 3, device="cuda")
        mask = torch.arange(max(lengths), device="cuda") < torch.tensor(lengths, device="cuda")[:, None]
        results = []
        for model in (layer, graphed):
            model.zero_grad()
            inputs = x.clone().requires_grad_(True)
            outputs, last = model(inputs, mask)
            (outputs.square().sum() + last.sin().sum()).backward()
            results.append((outputs, last, inputs.grad, [p.grad for p in model.parameters()]))
        (want_out, want_last, want_dx, want_dp), (out, last, dx, dp) = results
        assert out.shape == want_out.shape
        torch.testing.assert_close(out, want_out, rtol=1e-5, atol=1e-5)  # compiled steps may fuse in another order
        torch.testing.assert_close(last, want_last, rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(dx, want_dx, rtol=1e-5, atol=1e-5)
        for got, want in zip(dp, want_dp, strict=True):
            torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-5)
    assert len(graphed.graphs.graphs) == 2  # buckets of width 8 and 16


@pytest.mark.skipif(not torch.cuda.is_available(), reason=NO_GPU)
def test_char_lm_trains_with_cuda_graphs():
    from seqmodels.train import train
    result = train("char-lm", device="cuda", epochs=1, hand_written=True, cuda_graphs=True, progress=False)
    assert result["test_perplexity"] < 10, result


@pytest.mark.skipif(not torch.cuda.is_available(), reason=NO_GPU)
def test_replay_reruns_a_recorded_function_on_new_inputs():
    torch.manual_seed(0)
    params = [torch.randn(shape, device="cuda") for shape in ((16, 3), (16, 4), (16,), (16,))]
    x, mask = torch.randn(2, 5, 3, device="cuda"), torch.ones(2, 5, dtype=torch.bool, device="cuda")
    run = replay(lambda x, mask: lstm_encode(x, mask, params), x, mask)
    for _ in range(2):
        x, mask = torch.randn(2, 5, 3, device="cuda"), torch.rand(2, 5, device="cuda") < 0.7
        mask[:, 0] = True
        (outputs, (h, c)), (want, (want_h, want_c)) = run(x, mask), lstm_encode(x, mask, params)
        torch.testing.assert_close(outputs, want)
        torch.testing.assert_close(h, want_h)
        torch.testing.assert_close(c, want_c)
