"""Differentiable building blocks, one concept per module."""
