"""Outputs: what the graded class gets back (feedback pages) and the grades exported for the LMS."""
