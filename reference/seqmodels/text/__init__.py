"""Turning text into integer ids: vocabularies and batching (chapter 01)."""
