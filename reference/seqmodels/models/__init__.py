"""The models the chapters train, each with a hand-written path and PyTorch's fast path."""
