"""Real (synthesised) speech for CTC (chapter 09): English words spoken by eSpeak NG, as log-mel frames and phonemes.

**What it is.** 3,000 utterances, one word each: the 3,000 most frequent words of the Lee news
corpus (``seqmodels.data.news_text``) that are made of letters, each said once by the eSpeak NG
speech synthesiser (version 1.51) in an American or British accent with one of 13 voice variants,
at 140-220 words per minute and a random pitch. An utterance is 18-122 frames of 24 log-mel band
energies (a 25 ms window every 10 ms; 53 frames on average) and the 1-16 phonemes that the
synthesiser said (5.5 on average), out of 66 phoneme names. Recognising them is *phone
recognition*, like the TIMIT benchmark's, on a clean, synthetic voice.

**Splits.** By word and by voice: the 3,000 words were cut 80/10/10 at random, and each part was
spoken by its own voice variants (training m1-m5, m8, f1-f3; validation m6, f5; test m7, f4), so
a test utterance is a word never heard in training, in a voice never heard in training. The
deep voice m7 is the hardest. One phoneme occurs in a test word only: the ``x`` of American
*Ahmed*, which no recogniser trained here can get right.

**How it was made.** ``seqmodels.data.make_spoken_words`` (its docstring gives every setting):
the synthesiser ran through its C library and reported each phoneme as it said it, so the labels
are what was spoken, with the frames where each phoneme starts. ``python -m
seqmodels.data.make_spoken_words`` remakes the file after ``apt-get install espeak-ng``; nothing
is synthesised or downloaded when the course runs. The file, ``spoken_words.npz.xz`` (1.7 MB),
ships inside the package: the energies are stored as uint8 in 1.5 dB steps, then compressed with
LZMA.

**Provenance.** eSpeak NG, by the eSpeak NG contributors, continues Jonathan Duddington's eSpeak;
the data was made with Debian 12's package ``espeak-ng`` 1.51+dfsg-10+deb12u2. The words are the
Lee background corpus's (M. D. Lee, B. Pincombe and M. Welsh, 2005; no licence stated in the file,
redistributed by gensim: see ``seqmodels.data.news_text``); the file holds the 3,000 words only,
not the corpus.

**Licence.** eSpeak NG, program and voice data, is licensed GPL-3.0-or-later. The GPL governs
copying and changing eSpeak NG; of its output, GPL-3.0 (section 2) says that it "is covered by
this License only if the output, given its content, constitutes a covered work". eSpeak NG's
output can contain pieces of its data: some of its consonants are short recorded waveforms (the
``W`` lines of its ``phondata-manifest``). The course ships neither eSpeak NG nor any audio: the
file holds mel-band energies (24 numbers per 10 ms, rounded to 1.5 dB, from which the original
samples cannot be recovered) and the phoneme names eSpeak NG reported. The course distributes the file with
this provenance under its MIT licence; whoever prefers the cautious reading can treat it like
eSpeak NG's own data, GPL-3.0-or-later, or remake it with the command above.

**What the loader gives.** ``utterances`` returns every utterance as stored (decibels, word, voice,
phonemes and where each sounds); ``spoken_words`` returns ``Splits`` of (frames, phoneme ids) for
training, the frames standardised per band with the training frames' mean and standard deviation,
and the phoneme inventory as its ``vocab`` (name -> id, in sorted order). The same file always
gives the same tensors.
"""
import io
import json
import lzma
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from seqmodels.data.splits import Splits

DATA = Path(__file__).with_name("spoken_words.npz.xz")
MAKE = "python -m seqmodels.data.make_spoken_words"
SPLITS = ("train", "validation", "test")


@dataclass(frozen=True)
class Utterance:
    word: str
    voice: str  # eSpeak NG's voice and variant, e.g. "en-us+f4" ("en" is British English)
    rate: int  # words per minute
    pitch: int  # eSpeak NG's base pitch, 0-100
    split: str  # "train", "validation" or "test"
    decibels: torch.Tensor  # [T, 24] log-mel band energies in dB, frame t centred at t * 9.98 ms (220 samples)
    phonemes: list[str]  # what the synthesiser said, in eSpeak NG's names
    segments: list[tuple[int, int]]  # for every phoneme, its frames (first, end), end excluded


def _arrays() -> dict[str, np.ndarray]:
    if not DATA.is_file():
        raise FileNotFoundError(f"{DATA} is missing: it ships with seqmodels (reinstall the package), "
                                f"or remake it with `{MAKE}` (needs `apt-get install espeak-ng`)")
    with np.load(io.BytesIO(lzma.decompress(DATA.read_bytes()))) as arrays:
        return dict(arrays)


def provenance() -> dict:
    """How the file was made: the eSpeak NG version, the command, the feature and voice settings."""
    return json.loads(str(_arrays()["metadata"]))


def utterances() -> list[Utterance]:
    """The 3,000 utterances in the file's order (the words' order of frequency)."""
    arrays = _arrays()
    metadata = json.loads(str(arrays["metadata"]))
    decibels = metadata["low_db"] + metadata["step_db"] * torch.from_numpy(arrays["frames"].astype(np.float32))
    frame_ends = np.cumsum(arrays["frame_counts"], dtype=np.int64).tolist()
    phoneme_ends = np.cumsum(arrays["phoneme_counts"], dtype=np.int64).tolist()
    names = arrays["inventory"][arrays["phonemes"]].tolist()
    segments = [tuple(segment) for segment in arrays["segments"].tolist()]
    columns = zip(arrays["words"].tolist(), arrays["accents"].tolist(), arrays["variants"].tolist(),
                  arrays["rates"].tolist(), arrays["pitches"].tolist(), arrays["splits"].tolist(),
                  arrays["frame_counts"].tolist(), frame_ends, arrays["phoneme_counts"].tolist(), phoneme_ends)
    result = []
    for word, accent, variant, rate, pitch, split, n_frames, frame_end, n_phonemes, phoneme_end in columns:
        said = slice(phoneme_end - n_phonemes, phoneme_end)
        result.append(Utterance(word, f"{accent}+{variant}", rate, pitch, SPLITS[split],
                                decibels[frame_end - n_frames:frame_end], names[said], segments[said]))
    return result


def spoken_words() -> Splits:
    """(frames [T, 24] standardised per band, phoneme ids) for the training, validation and test words; the
    inventory of 66 phoneme names as ``vocab``."""
    every = utterances()
    inventory = sorted({p for u in every for p in u.phonemes})
    vocab = {name: i for i, name in enumerate(inventory)}
    training_frames = torch.cat([u.decibels for u in every if u.split == "train"])
    mean, std = training_frames.mean(0), training_frames.std(0)
    parts = {split: [((u.decibels - mean) / std, [vocab[p] for p in u.phonemes]) for u in every if u.split == split]
             for split in SPLITS}
    return Splits(parts["train"], parts["validation"], parts["test"], vocab=vocab)
