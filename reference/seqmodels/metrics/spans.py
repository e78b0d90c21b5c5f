"""Entity-level span precision, recall and F1 of BIO tags (Tjong Kim Sang and De Meulder, CoNLL-2003).

A tagger can get most tokens right and still miss entities: the O tags are the easy majority, and one
wrong tag inside *new york city* loses the whole entity. The CoNLL shared tasks therefore score
entities: an entity counts as found only if its type and both of its ends are right.
"""


def bio_spans(tags: list[str]) -> set[tuple[str, int, int]]:
    """The entities of one BIO sequence as ``(type, start, end)``, ``end`` exclusive.

    An entity starts at ``B-X``, or, as in the CoNLL evaluation script, at an ``I-X`` that does not continue
    an entity of type X (after ``O``, after another type, or first in the sentence); it goes on over the
    ``I-X`` that follow.
    """
    spans, kind, start = set(), None, 0
    for i, tag in enumerate([*tags, "O"]):  # the final O closes a trailing entity
        prefix, _, tag_kind = tag.partition("-")
        continues = prefix == "I" and tag_kind == kind
        if kind is not None and not continues:
            spans.add((kind, start, i))
            kind = None
        if prefix in ("B", "I") and not continues:
            kind, start = tag_kind, i
    return spans


def span_f1(gold: list[list[str]], predicted: list[list[str]]) -> tuple[float, float, float]:
    """Micro-averaged (precision, recall, F1) of predicted entities against gold ones over all sentences."""
    if len(gold) != len(predicted):
        raise ValueError(f"span_f1 needs one predicted sequence per gold one, got {len(predicted)} and {len(gold)}")
    found = right = expected = 0
    for gold_tags, predicted_tags in zip(gold, predicted):
        gold_spans, predicted_spans = bio_spans(gold_tags), bio_spans(predicted_tags)
        found, expected = found + len(predicted_spans), expected + len(gold_spans)
        right += len(gold_spans & predicted_spans)
    precision = right / found if found else 0.0
    recall = right / expected if expected else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1
