"""The standard benchmarks of word vectors: analogy questions and human similarity ratings (chapter 03).

All three files come with gensim's test data (``seqmodels.data.gensim_files``); none states a
licence of its own, gensim (LGPL-2.1) redistributes them, and the course reads them from the
installed wheel without shipping a copy. Every word is lower-cased, as the vectors' vocabulary is
(``seqmodels.data.news_text.words``).

- ``questions-words.txt``: the analogy set of T. Mikolov, K. Chen, G. Corrado and J. Dean,
  *Efficient Estimation of Word Representations in Vector Space* (2013), released with their
  word2vec tool. 19,544 questions *a b c d* ("a is to b as c is to d") in 14 sections: 5 semantic
  (capitals, currencies, cities in states, family; 8,869 questions) and 9 syntactic (``gram1`` to
  ``gram9``: adverbs, opposites, comparatives, superlatives, participles, nationalities, past
  tenses, plurals; 10,675 questions).
- ``wordsim353.tsv``: WordSimilarity-353 of L. Finkelstein, E. Gabrilovich, Y. Matias, E. Rivlin,
  Z. Solan, G. Wolfman and E. Ruppin, *Placing Search in Context: The Concept Revisited* (2002).
  353 word pairs, each with the mean of human ratings from 0 to 10 of how *related* the two words
  are (*cup*, *drink*: 7.25).
- ``simlex999.txt``: SimLex-999 of F. Hill, R. Reichart and A. Korhonen, *SimLex-999: Evaluating
  Semantic Models with (Genuine) Similarity Estimation* (2015). 999 pairs rated from 0 to 10 for
  *similarity* proper: related but unlike words score low (*old*, *new*: 1.58), which is hard for
  vectors learnt from co-occurrence.
"""
from seqmodels.data.gensim_files import gensim_test_file

Question = tuple[str, str, str, str]
RatedPair = tuple[str, str, float]


def analogy_sections() -> dict[str, list[Question]]:
    """The analogy questions by section (``capital-common-countries``, ..., ``gram9-plural-verbs``), in file order."""
    sections: dict[str, list[Question]] = {}
    for line in gensim_test_file("questions-words.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith(":"):
            current = sections.setdefault(line[1:].strip(), [])
        elif line.strip():
            current.append(tuple(line.lower().split()))
    return sections


def _rated_pairs(name: str) -> list[RatedPair]:
    """Tab-separated lines ``word1 word2 rating``; lines starting with ``#`` are comments."""
    pairs = []
    for line in gensim_test_file(name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            first, second, rating = line.split("\t")
            pairs.append((first.lower(), second.lower(), float(rating)))
    return pairs


def wordsim353() -> list[RatedPair]:
    """The 353 WordSim-353 pairs with their mean relatedness rating (0-10)."""
    return _rated_pairs("wordsim353.tsv")


def simlex999() -> list[RatedPair]:
    """The 999 SimLex-999 pairs with their mean similarity rating (0-10)."""
    return _rated_pairs("simlex999.txt")
