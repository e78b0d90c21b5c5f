"""The relation corpus: deterministic, built from its templates, and its analogy questions are well formed."""
from collections import Counter

from seqmodels.data.word_relations import COUNTRIES, PEOPLE, analogy_questions, relation_corpus


def test_same_seed_same_corpus_other_seed_other_corpus():
    assert relation_corpus(50, seed=3) == relation_corpus(50, seed=3)
    assert relation_corpus(50, seed=3) != relation_corpus(50, seed=4)


def test_sentences_are_short_token_lists_about_people_and_countries():
    corpus = relation_corpus(2000, seed=0)
    assert len(corpus) == 2000 and all(2 < len(s) <= 9 and all(w.islower() for w in s) for s in corpus)
    counts = Counter(w for s in corpus for w in s)
    for male, female, _ in PEOPLE:
        assert counts[male] > 20 and counts[female] > 20
    for country, capital, language, _ in COUNTRIES:
        assert counts[country] > 20 and counts[capital] > 20 and counts[language] > 20


def test_gender_words_go_with_the_matching_person():
    for sentence in relation_corpus(3000, seed=1):
        if "queen" in sentence or "woman" in sentence:
            assert not {"he", "his", "him", "male"} & set(sentence), sentence
        if "king" in sentence or "man" in sentence:
            assert not {"she", "her", "female"} & set(sentence), sentence


def test_analogy_questions_pair_every_relation_with_every_other():
    questions = analogy_questions()
    assert ("man", "woman", "king", "queen") in questions and ("france", "paris", "italy", "rome") in questions
    assert len(questions) == len(PEOPLE) * (len(PEOPLE) - 1) + len(COUNTRIES) * (len(COUNTRIES) - 1)
    vocabulary = {w for s in relation_corpus(3000) for w in s}
    assert all(set(q) <= vocabulary and len(set(q)) == 4 for q in questions)
