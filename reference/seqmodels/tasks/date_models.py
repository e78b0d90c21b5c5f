"""Chapter 12's two measurements, shared by its notebook and the GPU session (``bench/gpu_session.py``):
chapter 11's attention RNN and a small transformer trained on the same dates (seconds per epoch and held-out
exact match), and the cost of one LSTM layer and one encoder layer as the length L grows."""
import time

import torch
from torch import nn

from seqmodels.data.dates import date_pairs
from seqmodels.models.seq2seq import AttentionSeq2Seq
from seqmodels.models.transformer import TransformerSeq2Seq
from seqmodels.tasks.base import SCALES, Scale
from seqmodels.tasks.dates import target_vocabulary, translation
from seqmodels.training import Trainer

EPOCHS = 16
PAIRS = 1500  # generated date pairs at the CPU scale: 1200 to train on, 150 held out, 150 for testing
LENGTHS = [16, 32, 64, 128, 256, 512, 1024]


def date_models(scale: Scale) -> dict[str, tuple[type[nn.Module], dict[str, int], float]]:
    """name: (class, sizes, learning rate); the CPU scale's sizes times ``scale.width``."""
    w = scale.width
    return {
        "attention RNN (chapter 11)": (AttentionSeq2Seq, dict(dim=16 * w, hidden=32 * w, attention=32 * w), 0.01),
        "transformer": (TransformerSeq2Seq, dict(dim=32 * w, heads=4, feedforward=64 * w, layers=2), 3e-3),
    }


def train_date_models(device: torch.device, scale: Scale = SCALES["cpu"], epochs: int = EPOCHS,
                      pairs: int = PAIRS, progress: bool = True):
    """Train both models one after the other (Adam, teacher forcing; held-out exact match after every epoch).
    Returns (data, output vocabulary, histories, trained models, setups), each of the last three by name."""
    data = date_pairs(n=pairs * scale.data, seed=0)
    out_vocab = target_vocabulary(data)
    histories, trained, setups = {}, {}, {}
    for name, (kind, sizes, lr) in date_models(scale).items():
        torch.manual_seed(0)
        model = kind(len(data.vocab), len(out_vocab), **sizes)
        if progress:
            print(f"{name}: {sum(p.numel() for p in model.parameters()):,} parameters")
        setups[name] = translation(data, out_vocab, model, device, seed=0, batch_size=32 * scale.batch)
        trainer = Trainer(model, setups[name].step, lr=lr, device=device, seed=0, progress=progress)
        histories[name] = trainer.fit(setups[name].train, epochs=epochs,
                                      evaluate=lambda m, setup=setups[name]: setup.evaluate(m, "validation"))
        trained[name] = model.eval()
    return data, out_vocab, histories, trained, setups


def seconds_per_pass(layer: nn.Module, x: torch.Tensor, repeats: int = 3) -> float:
    """The fastest of ``repeats`` forward and backward passes of ``layer`` over x (waiting for the GPU)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        out = layer(x)
        (out[0] if isinstance(out, tuple) else out).sum().backward()
        if x.is_cuda:
            torch.cuda.synchronize()
        best = min(best, time.perf_counter() - start)
    return best


def layer_cost_sweep(device: torch.device, lengths: list[int] = LENGTHS, d: int = 64, batch: int = 8,
                     repeats: int = 3) -> dict[str, list[float]]:
    """Seconds of one forward and backward pass at each length: PyTorch's LSTM layer and one encoder layer
    (4 heads, F = 4d), on a batch of ``batch`` random sequences of width ``d``."""
    torch.manual_seed(0)
    layers = {
        "LSTM": nn.LSTM(d, d, batch_first=True),
        "encoder layer": nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.0, batch_first=True),
    }
    return {name: [seconds_per_pass(layer.to(device), torch.randn(batch, L, d, device=device), repeats)
                   for L in lengths]
            for name, layer in layers.items()}
