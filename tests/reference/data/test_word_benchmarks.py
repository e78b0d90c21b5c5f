"""The analogy and similarity benchmarks: the documented counts, lower-case words, ratings from 0 to 10,
and their provenance in the docs."""
import seqmodels.data.word_benchmarks as word_benchmarks
from seqmodels.data.word_benchmarks import analogy_sections, simlex999, wordsim353


def test_fourteen_sections_of_analogy_questions():
    sections = analogy_sections()
    assert len(sections) == 14 and list(sections)[0] == "capital-common-countries"
    assert sum(map(len, sections.values())) == 19544
    assert sum(len(q) for name, q in sections.items() if not name.startswith("gram")) == 8869
    assert sections["capital-common-countries"][0] == ("athens", "greece", "baghdad", "iraq")
    assert all(len(q) == 4 and all(w == w.lower() for w in q) for qs in sections.values() for q in qs)


def test_rated_pairs_with_ratings_from_zero_to_ten():
    for pairs, size, first in ((wordsim353(), 353, ("love", "sex", 6.77)), (simlex999(), 999, ("old", "new", 1.58))):
        assert len(pairs) == size and pairs[0] == first
        assert all(0 <= rating <= 10 and a == a.lower() and b == b.lower() for a, b, rating in pairs)


def test_loading_twice_gives_the_same_lists():
    assert analogy_sections() == analogy_sections() and wordsim353() == wordsim353()


def test_the_docs_give_each_set_its_authors_and_title():
    doc = " ".join(word_benchmarks.__doc__.split())
    for fact in ("Mikolov", "Efficient Estimation of Word Representations in Vector Space", "Finkelstein",
                 "Placing Search in Context: The Concept Revisited", "Hill", "Reichart", "Korhonen",
                 "SimLex-999: Evaluating", "LGPL-2.1", "licence"):
        assert fact in doc, fact
