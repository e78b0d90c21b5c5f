"""Dates, entities, speech and character text: deterministic, well-formed, and labelled by their rule."""
import datetime

import torch

from seqmodels.data.char_text import char_text
from seqmodels.data.dates import date_pairs
from seqmodels.data.entities import ENTITIES, TAGS, entities
from seqmodels.data.speech import prototypes, speech, utterance, utterance_with_segments


def test_dates_map_every_format_to_the_same_iso_date():
    data = date_pairs(600, seed=1)
    assert date_pairs(600, seed=1).train == data.train
    for source, target in data.train:
        iso = "".join(target)
        date = datetime.date.fromisoformat(iso)
        written = "".join(source)
        assert str(date.day) in written and (str(date.year) in written or f"{date.year % 100:02d}" in written)
    assert len({"".join(s)[:3] for s, _ in data.train}) > 20  # many formats and values


def test_entity_tags_are_valid_bio_and_cover_the_entities():
    data = entities(500, seed=2)
    ambiguous = {w[0] for kind in ENTITIES for w in ENTITIES[kind] if sum(w in ENTITIES[k] for k in ENTITIES) > 1}
    assert {"jordan", "washington", "lincoln"} <= ambiguous
    for tokens, tags in data.train:
        assert len(tokens) == len(tags) and set(tags) <= set(TAGS)
        for previous, tag in zip(["O", *tags], tags):
            if tag.startswith("I-"):
                assert previous[2:] == tag[2:], (tokens, tags)
    assert entities(500, seed=2).test == data.test


def test_speech_frames_spell_their_symbols_with_silence_between_repeats():
    protos = prototypes(5, 8, seed=3)
    g = torch.Generator().manual_seed(0)
    for labels in ([0, 1, 2], [3, 3, 3], [4], [1, 1, 0, 0, 2]):
        frames = utterance(labels, protos, g, noise=0.0)
        per_frame = [-1 if float(f.norm()) == 0 else int((f @ protos.T).argmax()) for f in frames]
        collapsed = [v for i, v in enumerate(per_frame) if i == 0 or v != per_frame[i - 1]]
        assert [v for v in collapsed if v >= 0] == labels, (labels, per_frame)


def test_speech_segments_are_where_each_symbol_sounds():
    protos = prototypes(5, 8, seed=3)
    for labels in ([0, 1, 2], [3, 3, 3], [4], [1, 1, 0, 0, 2]):
        frames, segments = utterance_with_segments(labels, protos, torch.Generator().manual_seed(1), noise=0.0)
        assert torch.equal(frames, utterance(labels, protos, torch.Generator().manual_seed(1), noise=0.0))
        assert len(segments) == len(labels) and all(a < b <= c for (a, b), (c, _) in zip(segments, segments[1:]))
        inside = {t for first, end in segments for t in range(first, end)}
        for t, frame in enumerate(frames):
            assert (float(frame.norm()) > 0) == (t in inside), (labels, t)
        for (first, end), label in zip(segments, labels):
            assert all(torch.equal(frames[t], protos[label]) for t in range(first, end))


def test_speech_is_deterministic_with_noisy_frames_of_the_right_size():
    data = speech(200, symbols=5, features=8, seed=3)
    for frames, labels in data.train:
        assert frames.shape[1] == 8 and len(labels) <= frames.shape[0] <= len(labels) * 9
    assert all(torch.equal(a[0], b[0]) for a, b in zip(speech(200, 5, 8, seed=3).train, data.train))
    assert data.vocab == {}


def test_character_text_is_grammatical_and_deterministic():
    data = char_text(300, seed=4)
    for characters, text in data.train:
        assert "".join(characters) == text and text.endswith(".")
        assert " a a" not in text and " a o" not in text  # "an" before vowels
    assert set(data.vocab) >= set("abcdefghilmnoprstuvwy .")
    assert char_text(300, seed=4).validation == data.validation
