"""Runs in a student's kernel: the test cells' helpers and the rules. Trusts nothing it computes for a score."""
