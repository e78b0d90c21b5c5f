"""The Lee background corpus: its documented size, a deterministic tokeniser, sentences, splits by document,
and its provenance in the docs."""
import seqmodels.data.news_text as news_text
from seqmodels.data.news_text import news_char_splits, news_documents, news_sentences, news_words, words


def test_three_hundred_documents_of_sixty_thousand_words():
    documents = news_documents()
    assert len(documents) == 300 and all(d and d == d.strip() and "\n" not in d for d in documents)
    assert sum(len(d.split()) for d in documents) == 59890
    assert documents[0].startswith("Hundreds of people have been forced to vacate their homes")
    tokens = news_words()
    assert len(tokens) == 300 and sum(len(t) for t in tokens) == 60533


def test_words_are_lower_case_runs_of_letters_and_digits():
    assert words("South-West of Sydney, Israel's 4:00pm \"Don't\" U.S. blaze.") == [
        "south", "west", "of", "sydney", "israel's", "4", "00pm", "don't", "u", "s", "blaze"]
    assert all(w == w.lower() and news_text.WORD.fullmatch(w) for document in news_words() for w in document)


def test_loading_twice_gives_the_same_lists():
    assert news_words() == news_words()
    assert news_char_splits().train == news_char_splits().train


def test_sentences_end_at_a_full_stop_before_a_capital():
    assert news_sentences('It burned. "We left," she said. Rain fell? yes.') == [
        "It burned.", '"We left," she said.', "Rain fell? yes."]
    document = news_documents()[0]
    assert "".join(news_sentences(document)).replace(" ", "") == document.replace(" ", "")


def test_char_splits_keep_every_story_in_one_split():
    data = news_char_splits()
    assert (len(data.train), len(data.validation), len(data.test)) == (2078, 296, 239)
    assert all(chars == list(sentence) for chars, sentence in data.train[:50])
    documents = news_documents()
    train_text, test_text = " ".join(documents[:240]), " ".join(documents[270:])
    assert all(s in train_text for _, s in data.train[::100]) and all(s in test_text for _, s in data.test[::20])
    assert {"[PAD]", "[UNK]", "a", "A", "."} <= set(data.vocab) and len(data.vocab) == 82


def test_the_docs_give_source_authors_title_and_licence():
    doc = " ".join(news_text.__doc__.split())
    for fact in ("Lee", "Pincombe", "Welsh", "An Empirical Evaluation of Models of Text Document Similarity",
                 "Australian Broadcasting Corporation", "LGPL-2.1", "states none", "``WORD``"):
        assert fact in doc, fact
