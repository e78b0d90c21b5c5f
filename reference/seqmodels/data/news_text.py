"""Real English text: the Lee background corpus of news stories (chapters 03 and 04).

**What it is.** 300 short news documents, 59,890 whitespace-separated words (360,082 characters,
plain ASCII), one document per line of ``lee_background.cor`` in gensim's test data
(``seqmodels.data.gensim_files``). They are headline stories from the Australian Broadcasting
Corporation's news mail service, around 2000–2001 (Afghanistan and the Taliban, Israel and the
Palestinians, Australian politics, bushfires, cricket): the background corpus of M. D. Lee,
B. Pincombe and M. Welsh, *An Empirical Evaluation of Models of Text Document Similarity*
(Proceedings of the 27th Annual Conference of the Cognitive Science Society, 2005), which gensim's
tutorials describe as shortened for this file.

**Licence.** The file states none. gensim (LGPL-2.1) redistributes it with the credit, in its
``test_lee.py``, that Michael D. Lee provided the corpus, and asks users to cite Lee et al. (2005).
The course ships no copy: it reads the file from the installed gensim wheel.

**Tokens.** ``words`` lower-cases and keeps runs of letters and digits, with an apostrophe suffix
(``WORD``): "South-West" gives *south*, *west*; "Israel's" gives *israel's*; "4:00pm" gives *4*,
*00pm*; other punctuation is dropped. ``news_sentences`` cuts a document after ``.``, ``!`` or ``?``
followed by a space and a capital or a quote (``SENTENCE_END``). It would also cut after an
abbreviation, but this copy writes "Mr" and "Dr" without a full stop: two cuts in the whole corpus
fall after one ("Dr.", "W."). The same installed file always gives the same lists.
"""
import re

from seqmodels.data.gensim_files import gensim_test_file
from seqmodels.data.splits import Splits
from seqmodels.text.vocab import build_vocab

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)*")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"])")


def news_documents() -> list[str]:
    """The 300 documents as written (case and punctuation kept), in the file's order."""
    text = gensim_test_file("lee_background.cor").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def words(text: str) -> list[str]:
    """``text`` lower-cased and cut into ``WORD`` tokens."""
    return WORD.findall(text.lower())


def news_words() -> list[list[str]]:
    """Every document as its list of words (``words``): 300 lists, 60,533 tokens in all."""
    return [words(document) for document in news_documents()]


def news_sentences(document: str) -> list[str]:
    """``document`` cut into its sentences at ``SENTENCE_END``."""
    return SENTENCE_END.split(document)


def news_document_splits(fractions: tuple[float, float] = (0.8, 0.1)) -> tuple[list[str], list[str], list[str]]:
    """The documents in the file's order, cut into training (the first 80%), validation (the next 10%) and test."""
    documents = news_documents()
    n_train, n_validation = int(fractions[0] * len(documents)), int(fractions[1] * len(documents))
    return documents[:n_train], documents[n_train:n_train + n_validation], documents[n_train + n_validation:]


def news_char_splits(fractions: tuple[float, float] = (0.8, 0.1)) -> Splits:
    """Sentences as (characters, sentence) pairs for a character language model, split by document: the first
    80% of the documents train, the next 10% validate, the rest test, so that no test sentence comes from a
    story seen in training. The vocabulary holds the training characters (case kept)."""
    train, validation, test = ([(list(s), s) for document in part for s in news_sentences(document)]
                               for part in news_document_splits(fractions))
    return Splits(train, validation, test, vocab=build_vocab(chars for chars, _ in train))
