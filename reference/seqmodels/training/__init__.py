"""Training: the trainer every chapter's demo uses; data-parallel under torchrun (``distributed``)."""
from seqmodels.training.trainer import (History, Trainer, at_least_float32, make_loader, pick_device, progress_bar,
                                        seed_everything, to_device)

__all__ = ["History", "Trainer", "at_least_float32", "make_loader", "pick_device", "progress_bar", "seed_everything",
           "to_device"]
