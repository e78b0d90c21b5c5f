"""Data-parallel training under torchrun: N processes, one per GPU (or CPU share), each training on its
shard of every batch and averaging gradients before each update.

    torchrun --nproc_per_node=N -m seqmodels.train TASK

torchrun starts N copies of the program with ``WORLD_SIZE``, ``RANK`` and ``LOCAL_RANK`` in their
environment. The trainer then joins a process group (NCCL on CUDA, each rank on ``cuda:LOCAL_RANK``;
gloo on CPUs). Without those variables every function here does nothing, so a plain run is unchanged.

*Sharding.* The loader's own seeded shuffling is kept: every rank draws the same permutation, so every
rank knows each *global* batch of one process, and takes examples ``rank, rank + N, ...`` of it. The N
processes together see exactly the batches of one process, step by step. (A DistributedSampler would
shuffle with its own seed and pad shards with repeated examples.) A final batch with fewer examples than
ranks is dropped: some rank would have none.

*Gradients* are averaged with one all-reduce per step (per dtype) after ``backward``, by hand rather than
by DistributedDataParallel's wrapper: DDP syncs only what runs through its ``forward``, while steps call
``model.loss``, test ``hasattr(model, "loss")``, and may call several methods or leave parameters unused.
Averaging ``.grad`` works whatever the step did. What is lost is DDP's overlap of its bucketed
all-reduces with ``backward``, which matters little for models this small: one all-reduce of a few MB.
The initial weights are broadcast from rank 0 (as DDP does), so every rank holds the same model at every
step, and clipping and the optimizer, on the same averaged gradients, stay in step too.

*What is exact.* Each rank's step returns the mean loss of its shard, and the ranks' gradients are
averaged with equal weights. When every shard has the same number of examples and the loss is a mean
over examples (classification, CRF, CTC, skip-gram), that is the gradient of the global batch's mean:
the N-process run follows the 1-process one up to float rounding. A mean over tokens (language models,
per-token tagging, seq2seq) is approximate: shards hold different numbers of tokens, so a mean of the
shards' means weights them slightly differently. Randomness drawn per batch (skip-gram's noise words,
drawn while collating) comes from each rank's copy of the generator: other draws than one process
makes (and the same on every rank). The history's training loss sums loss x tokens and tokens over
every rank's steps, so it is the exact token-weighted mean for token means, and slightly off the
1-process figure for means over examples whose shards hold unequal numbers of tokens. With N = 1
everything, numbers included, is identical to a plain run.

*Evaluation* runs on every rank, on the same weights, so every rank gets the same metrics without
communicating, and no rank waits for another; only rank 0 prints.
"""
import atexit
import os
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import torch
import torch.distributed as dist
from torch import nn

TORCHRUN = ("WORLD_SIZE", "RANK", "LOCAL_RANK")


def launched() -> bool:
    """Whether torchrun started this process."""
    return all(name in os.environ for name in TORCHRUN)


def active() -> bool:
    """Whether this process trains data-parallel (in a process group)."""
    return dist.is_available() and dist.is_initialized()


def rank() -> int:
    """This process's number (0 without torchrun); read from the environment, so valid before and after the group."""
    return int(os.environ.get("RANK", 0)) if launched() else 0


def is_main() -> bool:
    """Rank 0, the process that prints (every process without torchrun)."""
    return rank() == 0


def local_device(device: torch.device) -> torch.device:
    """Under torchrun, CUDA without an index means this process's GPU, ``cuda:LOCAL_RANK``."""
    if launched() and device.type == "cuda" and device.index is None:
        return torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    return device


def start(device: torch.device) -> None:
    """Under torchrun, join the process group (once): NCCL for CUDA, gloo for the CPU. Destroyed by
    ``finish`` or, at the latest, when the program exits."""
    if not launched() or active():
        return
    if device.type not in ("cuda", "cpu"):
        raise ValueError(f"data-parallel training runs on CUDA (NCCL) or the CPU (gloo), not {device.type}")
    if device.type == "cuda":
        torch.cuda.set_device(device)
        dist.init_process_group("nccl", device_id=device)
    else:
        dist.init_process_group("gloo")
    atexit.register(finish)


def finish() -> None:
    """Leave the process group, if any."""
    if active():
        dist.destroy_process_group()


def barrier() -> None:
    """Wait until every rank gets here (nothing outside a process group)."""
    if active():
        dist.barrier()


@contextmanager
def data_parallel(device: torch.device) -> Iterator[torch.device]:
    """``with data_parallel(device):`` a run in the process group under torchrun, destroyed at its end."""
    start(device)
    try:
        yield device
    finally:
        finish()


class ShardedBatches(torch.utils.data.Sampler):
    """Examples ``rank, rank + N, ...`` of every batch of ``batches`` (shards differ by one example at most);
    a batch smaller than N is skipped on every rank alike."""

    def __init__(self, batches: Iterable[list[int]], rank: int, world_size: int):
        self.batches, self.rank, self.world_size = batches, rank, world_size

    def __iter__(self) -> Iterator[list[int]]:
        for indices in self.batches:
            if len(indices) >= self.world_size:
                yield list(indices)[self.rank :: self.world_size]

    def __len__(self) -> int:
        batches = self.batches
        if not isinstance(batches, torch.utils.data.BatchSampler):
            return len(batches)
        n, size = len(batches.sampler), batches.batch_size
        return n // size + (not batches.drop_last and n % size >= self.world_size)


def loader_shard(loader: torch.utils.data.DataLoader, rank: int, world_size: int) -> torch.utils.data.DataLoader:
    """``loader`` with rank ``rank``'s share of every batch. It draws from the same batch sampler and
    generator, so epochs shuffle as they would in one process (and the global RNG is left alone)."""
    if loader.batch_sampler is None:
        raise TypeError("data-parallel training needs a DataLoader that batches (batch_size or batch_sampler)")
    return torch.utils.data.DataLoader(
        loader.dataset, batch_sampler=ShardedBatches(loader.batch_sampler, rank, world_size),
        collate_fn=loader.collate_fn, num_workers=loader.num_workers, pin_memory=loader.pin_memory,
        timeout=loader.timeout, worker_init_fn=loader.worker_init_fn, generator=loader.generator,
        multiprocessing_context=loader.multiprocessing_context, prefetch_factor=loader.prefetch_factor,
        persistent_workers=loader.persistent_workers)


def shard(loader: Iterable) -> Iterable:
    """This rank's share of ``loader``; ``loader`` itself outside a process group."""
    if not active():
        return loader
    if not isinstance(loader, torch.utils.data.DataLoader):
        raise TypeError(f"data-parallel training shards a DataLoader's batches, not a {type(loader).__name__}")
    return loader_shard(loader, dist.get_rank(), dist.get_world_size())


def broadcast_state(model: nn.Module) -> None:
    """Rank 0's parameters and buffers on every rank (as DDP does when it wraps a model)."""
    if active():
        for tensor in model.state_dict().values():  # detached, sharing the parameters' storage
            dist.broadcast(tensor, src=0)


def average_gradients(parameters: Iterable[nn.Parameter]) -> None:
    """Every ``.grad`` replaced by its mean over the ranks: one all-reduce per dtype of one flat buffer,
    which also counts the ranks that had a gradient. A rank without one adds zeros; a parameter that no
    rank has a gradient for keeps None, as in one process (only then are the counts read, a wait on a GPU)."""
    if not active():
        return
    groups = defaultdict(list)
    for p in parameters:
        if p.requires_grad:
            groups[p.dtype].append(p)
    world_size = dist.get_world_size()
    for dtype, group in groups.items():
        had = [p.grad is not None for p in group]
        flags = torch.tensor(had, dtype=dtype).to(group[0].device, non_blocking=True)  # no wait for the GPU
        flat = torch.cat([*((p.grad if p.grad is not None else torch.zeros_like(p)).reshape(-1) for p in group),
                          flags])
        dist.all_reduce(flat)
        flat /= world_size
        *means, ranks_with_grad = flat.split([*(p.numel() for p in group), len(group)])
        # back into the gradients' own tensors, not views of ``flat``: on unaligned views CUDA's clipping and
        # Adam kernels round differently (seen with N = 1 on an H100: no longer bit for bit a plain run)
        mine = [i for i, has in enumerate(had) if has]
        if mine:
            torch._foreach_copy_([group[i].grad for i in mine], [means[i].view_as(group[i].grad) for i in mine])
        if len(mine) < len(group):
            for p, mean, count in zip(group, means, ranks_with_grad.tolist()):
                if p.grad is None and count > 0:
                    p.grad = mean.view_as(p).clone()


def sum_over_ranks(values: list[int | float], device: torch.device) -> list[int | float]:
    """The sums of ``values`` over the ranks (float64, one all-reduce); ``values`` outside a process group."""
    if not active():
        return values
    total = torch.tensor(values, dtype=torch.float64, device=device)
    dist.all_reduce(total)
    return total.tolist()
