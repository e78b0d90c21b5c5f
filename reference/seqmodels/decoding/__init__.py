"""Turning a model's next-token distributions into output sequences."""
