"""eSpeak NG's spoken words: the shipped file's size and contents, splits by word and by voice, determinism,
provenance in the docs, the features' filterbank, and (where eSpeak NG is installed) the synthesiser itself."""
import ctypes.util

import numpy as np
import pytest
import torch

import seqmodels.data.make_spoken_words as make_spoken_words
import seqmodels.data.spoken_words as spoken_words_module
from seqmodels.data.make_spoken_words import BANDS, FFT, HOP, SAMPLE_RATE, WINDOW, log_mel, mel_filterbank
from seqmodels.data.spoken_words import DATA, MAKE, provenance, spoken_words, utterances

NO_ESPEAK = "eSpeak NG is not installed (`apt-get install espeak-ng`): only remaking the data needs it"


def test_the_shipped_file_is_small_and_says_how_it_was_made():
    assert DATA.is_file() and DATA.stat().st_size < 2_000_000
    made = provenance()
    assert made["espeak_ng_version"] == "1.51"
    assert made["made_by"] == MAKE == "python -m seqmodels.data.make_spoken_words"
    assert (made["hop"], made["window"], made["bands"], made["step_db"]) == (HOP, WINDOW, BANDS, 1.5)


def test_three_thousand_words_with_their_phonemes_and_segments():
    every = utterances()
    assert len(every) == 3000 and [u.word for u in every[:3]] == ["the", "to", "of"]
    assert len({u.word for u in every}) == 3000 and all(u.word.isalpha() for u in every)
    assert sum(len(u.decibels) for u in every) == 160155 and sum(len(u.phonemes) for u in every) == 16420
    inventory = {p for u in every for p in u.phonemes}
    assert len(inventory) == 66 and {"@", "3:", "S", "aI", "t#", ";"} <= inventory
    assert not any(p.startswith("_") for p in inventory)  # pauses are not labels
    for u in every:
        assert u.decibels.shape[1] == 24 and len(u.segments) == len(u.phonemes) >= 1
        starts = [first for first, _ in u.segments]
        assert starts == sorted(starts) and all(first <= end <= len(u.decibels) for first, end in u.segments)
    ahmed = next(u for u in every if u.word == "ahmed")
    assert ahmed.split == "test" and ahmed.phonemes == ["a", "x", "m", "E", "d"]  # the only "x", as documented


def test_splits_hold_different_words_in_different_voices():
    every = utterances()
    words = {split: {u.word for u in every if u.split == split} for split in ("train", "validation", "test")}
    assert [len(w) for w in words.values()] == [2400, 300, 300]
    assert not (words["train"] & words["validation"] or words["train"] & words["test"]
                or words["validation"] & words["test"])
    variants = {split: {u.voice.split("+")[1] for u in every if u.split == split} for split in words}
    assert variants == {"train": {"m1", "m2", "m3", "m4", "m5", "m8", "f1", "f2", "f3"}, "validation": {"m6", "f5"},
                        "test": {"m7", "f4"}}
    assert {u.voice.split("+")[0] for u in every} == {"en-us", "en"}
    assert all(140 <= u.rate <= 220 and 30 <= u.pitch <= 70 for u in every)


def test_splits_for_training_are_standardised_and_deterministic():
    data, again = spoken_words(), spoken_words()
    assert (len(data.train), len(data.validation), len(data.test)) == (2400, 300, 300)
    assert list(data.vocab) == sorted(data.vocab) and len(data.vocab) == 66
    frames = torch.cat([x for x, _ in data.train])
    assert torch.allclose(frames.mean(0), torch.zeros(24), atol=1e-4)
    assert torch.allclose(frames.std(0), torch.ones(24), atol=1e-4)
    first = next(u for u in utterances() if u.split == "train")
    assert [data.vocab[p] for p in first.phonemes] == data.train[0][1]
    for split in ("train", "validation", "test"):
        for (x, labels), (y, same_labels) in zip(getattr(data, split), getattr(again, split)):
            assert torch.equal(x, y) and labels == same_labels


def test_a_missing_file_names_the_command_that_makes_it(monkeypatch, tmp_path):
    monkeypatch.setattr(spoken_words_module, "DATA", tmp_path / "spoken_words.npz.xz")
    with pytest.raises(FileNotFoundError, match="python -m seqmodels.data.make_spoken_words"):
        utterances()


def test_the_docs_give_source_authors_licences_and_the_command():
    doc = " ".join(spoken_words_module.__doc__.split())
    for fact in ("eSpeak NG", "eSpeak NG contributors", "Jonathan Duddington", "1.51+dfsg-10+deb12u2",
                 "GPL-3.0-or-later", "section 2", "MIT", "Lee", "By word and by voice", MAKE, "1.7 MB"):
        assert fact in doc, fact
    made = " ".join(make_spoken_words.__doc__.split())
    for fact in ("apt-get install espeak-ng", MAKE, "espeak-ng -x", "HTK mel scale", "phone recognition"):
        assert fact in made, fact


def test_each_mel_filter_peaks_at_its_centre_and_a_tone_lands_in_the_nearest_band():
    filters = mel_filterbank()
    assert filters.shape == (BANDS, FFT // 2 + 1) and filters.min() >= 0 and filters.max() <= 1
    mel = 2595 * np.log10(1 + np.arange(FFT // 2 + 1) * SAMPLE_RATE / FFT / 700)
    peaks = mel[filters.argmax(1)]
    assert np.all(np.diff(peaks) > 0) and np.ptp(np.diff(peaks)) < 60  # about equally spaced in mel
    assert filters[:, int(8000 * FFT / SAMPLE_RATE) + 1:].max() == 0  # nothing above 8 kHz
    for band in (3, 12, 20):
        hz = filters[band].argmax() * SAMPLE_RATE / FFT
        tone = (10000 * np.sin(2 * np.pi * hz * np.arange(SAMPLE_RATE // 2) / SAMPLE_RATE)).astype(np.int16)
        decibels = log_mel(tone, filters)
        assert decibels.shape == (1 + len(tone) // HOP, BANDS)
        assert np.all(decibels[5:-5].argmax(1) == band)


@pytest.mark.skipif(ctypes.util.find_library("espeak-ng") is None, reason=NO_ESPEAK)
def test_the_synthesiser_says_the_shipped_phonemes_in_about_as_many_frames():
    speaker, filters = make_spoken_words.Synthesiser(), mel_filterbank()
    if speaker.version != provenance()["espeak_ng_version"]:
        pytest.skip(f"eSpeak NG {speaker.version} here, the file was made with {provenance()['espeak_ng_version']}")
    for u in utterances()[:5]:
        samples, said = speaker.say(u.word, u.voice, u.rate, u.pitch)
        assert [name for name, _ in said if not name.startswith("_")] == u.phonemes
        assert abs(len(log_mel(samples, filters)) - len(u.decibels)) <= 1
