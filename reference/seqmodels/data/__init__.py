"""Offline, deterministic data sets: every corpus is generated from a seed, or read from an installed package
(gensim's test data: seqmodels.data.gensim_files), never downloaded."""
