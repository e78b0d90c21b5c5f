"""Scores of model outputs against references."""
