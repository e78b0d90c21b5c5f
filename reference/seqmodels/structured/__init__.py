"""Structured losses and decoders over sequences: CTC (and, later, CRFs)."""
