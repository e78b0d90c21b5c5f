"""CUDA graphs for the course's hand-written layers: their step loops at GPU speed, one flag away.

A hand-written recurrent layer launches about ten small kernels per time step from Python, and on a
GPU each launch costs more CPU time than the kernel takes, so the GPU mostly waits (3 % of cuDNN's
speed on an H100, bench/training.py). A CUDA graph records every kernel of one forward and one
backward pass once and then replays them with a single launch each. The steps themselves
(``lstm_step``, ``gru_step``, ``rnn_step``) are compiled by ``torch.compile`` while the graph is
recorded, which fuses each step's elementwise work into a few kernels.

Graphs need fixed shapes, so inputs are padded up to buckets: time to a multiple of ``bucket``
(rows keep their count; an epoch has few batch sizes). Padding is masked out, which a masked
layer ignores exactly: same outputs on real positions, same gradients. Used for training on
CUDA (gradients on); anything else runs the layer as it is.

    layer = Recurrent(128, 512, cell="lstm", hand_written=True)
    layer.use_cuda_graphs()          # or: python -m seqmodels.train TASK --hand-written --cuda-graphs

    run = replay(lambda x, mask: lstm_encode(x, mask, params), x, mask)   # any function, no gradients
    outputs, (h, c) = run(x, mask)
"""
import contextlib
from collections.abc import Callable, Sequence

import torch
from torch import nn
from torch.nn import functional as F

from seqmodels.layers import gated, recurrent

STEPS = ((gated, "lstm_step"), (gated, "gru_step"), (recurrent, "rnn_step"))  # what the encode loops call


@contextlib.contextmanager
def compiled_steps():
    """The course's step functions compiled by torch.compile while the block runs (the loops look them up
    by name at every call, so the graph recorded inside holds the fused kernels)."""
    originals = [(module, name, getattr(module, name)) for module, name in STEPS]
    try:
        for module, name, step in originals:
            setattr(module, name, torch.compile(step, fullgraph=True))
        yield
    finally:
        for module, name, step in originals:
            setattr(module, name, step)


class BucketedGraphs:
    """``run(x, mask) -> (outputs [B, L, H], last [B, H])`` replayed from CUDA graphs, one per shape bucket.

    ``parameters`` are what ``run`` trains (their gradients come back through the graphed backward)."""

    def __init__(self, run: Callable, parameters: Sequence[nn.Parameter], bucket: int = 32):
        self.run, self.parameters, self.bucket = run, list(parameters), bucket
        self.graphs: dict[tuple, Callable] = {}

    def __call__(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        length = mask.shape[1]
        width = -(-length // self.bucket) * self.bucket
        x, mask = F.pad(x, (0, 0, 0, width - length)), F.pad(mask, (0, width - length), value=False)
        autocast = torch.is_autocast_enabled("cuda"), torch.get_autocast_dtype("cuda")
        key = (tuple(x.shape), x.dtype, x.requires_grad, autocast)
        if key not in self.graphs:
            self.graphs[key] = self._capture(x, mask, autocast)
        outputs, last = self.graphs[key](x, mask, *self.parameters)
        return outputs[:, :length], last

    def _capture(self, x: torch.Tensor, mask: torch.Tensor, autocast: tuple[bool, torch.dtype]) -> Callable:
        sample = (x.detach().clone().requires_grad_(x.requires_grad), mask.clone(), *self.parameters)
        # recorded kernels keep autocast's casts; its weight cache must be off while recording
        with compiled_steps(), torch.autocast("cuda", dtype=autocast[1], enabled=autocast[0], cache_enabled=False):
            return torch.cuda.make_graphed_callables(lambda x, mask, *_: self.run(x, mask), sample,
                                                     allow_unused_input=True)


def replay(fn: Callable, *args: torch.Tensor) -> Callable:
    """``fn(*args)`` recorded once as a CUDA graph, without gradients; returns a function that replays it on
    new arguments of the same shapes (copied into the recorded inputs) and returns the recorded outputs."""
    inputs = [arg.clone() for arg in args]
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.no_grad(), torch.cuda.stream(side):  # warm-up off the main stream, as graph capture requires
        fn(*inputs)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.no_grad(), torch.cuda.graph(graph):
        outputs = fn(*inputs)

    def run(*new_args: torch.Tensor):
        for recorded, new in zip(inputs, new_args, strict=True):
            recorded.copy_(new)
        graph.replay()
        return outputs
    return run
