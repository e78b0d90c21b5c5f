"""Finding the real text and benchmarks that the gensim wheel ships, without downloading anything.

gensim (R. Řehůřek and P. Sojka, *Software Framework for Topic Modelling with Large Corpora*, 2010;
licence LGPL-2.1) keeps small corpora and evaluation sets for its own tests in
``gensim/test/test_data/``, inside every wheel on PyPI. The course pins ``gensim==4.4.0`` in
``requirements.txt`` for those files alone (and for the chapter 03 comparison with its ``Word2Vec``):
``seqmodels.data.news_text`` and ``seqmodels.data.word_benchmarks`` read them from the installed
package, so nothing is fetched at run time and the course's repository holds none of the text.
The package is located without being imported (importing gensim loads SciPy, a second or two).
"""
from pathlib import Path

from seqmodels.data.installed import installed, package_file

GENSIM_INSTALL = "pip install gensim==4.4.0"


def gensim_available() -> bool:
    """Whether gensim is installed (a demo that needs it says so and skips when it is not)."""
    return installed("gensim")


def gensim_test_file(name: str) -> Path:
    """The path of ``gensim/test/test_data/<name>`` in the installed gensim; a clear error if gensim is missing."""
    return package_file("gensim", f"test/test_data/{name}", GENSIM_INSTALL, f"{name} comes")
