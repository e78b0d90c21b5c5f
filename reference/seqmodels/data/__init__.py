"""Offline, deterministic data sets: every corpus is generated or shipped, never downloaded."""
