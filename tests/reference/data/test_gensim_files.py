"""Locating gensim's test data: the installed wheel's files, and a clear message naming the install command."""
import sys

import pytest

from seqmodels.data.gensim_files import GENSIM_INSTALL, gensim_available, gensim_test_file
from seqmodels.data.news_text import news_documents
from seqmodels.data.word_benchmarks import analogy_sections


def test_the_files_come_from_the_installed_gensim_package():
    import gensim

    path = gensim_test_file("questions-words.txt")
    assert path.is_file() and path.parent.parent.parent == type(path)(gensim.__file__).parent


def test_without_gensim_every_loader_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "gensim", None)  # `import gensim` and find_spec now fail as if it were absent
    assert not gensim_available()
    for load in (news_documents, analogy_sections):
        with pytest.raises(ModuleNotFoundError, match="pip install gensim==4.4.0"):
            load()
    assert GENSIM_INSTALL == "pip install gensim==4.4.0"


def test_a_file_that_this_gensim_does_not_ship_is_named():
    with pytest.raises(FileNotFoundError, match="no-such-corpus.txt"):
        gensim_test_file("no-such-corpus.txt")
