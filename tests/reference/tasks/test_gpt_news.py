"""Chapter 13's GPT on the news (gpt-news) at the GPU scale: the news is a fixed corpus, so the scale widens and
deepens the GPT and doubles its batches, on the same training windows (``scaled_batch``)."""
import torch

from seqmodels.tasks import TASKS
from seqmodels.tasks.base import SCALES

CPU = torch.device("cpu")


def test_the_gpu_scale_trains_a_wider_deeper_gpt_on_the_same_windows_in_batches_twice_as_large():
    small, large = (TASKS["gpt-news"].build(device=CPU, scale=SCALES[name]) for name in ("cpu", "gpu"))
    assert len(large.train.dataset) == len(small.train.dataset)
    assert (small.train.batch_size, large.train.batch_size) == (16, 32)
    assert (len(small.model.blocks), len(large.model.blocks)) == (2, 6)
    assert (small.model.embedding.embedding_dim, large.model.embedding.embedding_dim) == (64, 256)
