"""How ``spoken_words.npz.xz`` was made: English words spoken by eSpeak NG, as log-mel frames and phonemes.

    apt-get install espeak-ng          # Debian/Ubuntu; the data was made with eSpeak NG 1.51
    python -m seqmodels.data.make_spoken_words

remakes ``seqmodels/data/spoken_words.npz.xz`` in 10 seconds (the loader is ``seqmodels.data.spoken_words``). Nothing
here runs when the course runs: the loader reads the shipped file, and neither eSpeak NG nor gensim
is needed for that.

**Words.** The ``WORDS`` most frequent words of the Lee background corpus
(``seqmodels.data.news_text``, read from the installed gensim) that are made of letters only, ties
in alphabetical order: *the*, *to*, *of*, ... down to words seen twice.

**Speakers.** A speaker is one of eSpeak NG's two main English accents (``ACCENTS``: American and
British) with one of its voice variants (``VARIANTS``: m1-m8, f1-f5, which change pitch, formants
and voice quality). The words are shuffled (``SEED``) and cut 80/10/10 into training, validation
and test words, and each split has its own variants: a test word is a word never heard in training,
said by a voice never heard in training. Every word is said once, by a speaker drawn from its
split's, at a speaking rate drawn from ``RATES`` (words per minute) and a pitch from ``PITCHES``
(eSpeak NG's 0-100 scale).

**Phonemes.** The synthesiser is driven through its C library (``libespeak-ng.so.1``, with
``ctypes``) with phoneme events on: while it speaks it reports each phoneme it says and the sample
at which it starts. Those names are the labels, so they are what was spoken; ``main`` checks that
they are also what ``espeak-ng -x`` prints for the word in the same accent, less its stress marks.
Pauses (names starting with ``_``) are not labels. The inventory is eSpeak NG's own phoneme names
(Kirshenbaum-like ASCII: ``@`` is schwa, ``3:`` the vowel of *bird*, ``S`` the *sh* of *she*,
``aI`` the vowel of *time*), including the variants its rules choose in context: American *united*
is ``j u: n aI t# I# d``, with ``t#`` for the flapped t, and *being* is ``b i: ; I N``, with a
glide ``;`` between the vowels. A post-vocalic *l* is spoken within its vowel: eSpeak NG reports
it at the vowel's end, with no frames of its own.

**Frames.** A 25 ms Hann window every 10 ms (``WINDOW`` and ``HOP`` samples at eSpeak NG's
22,050 Hz), the power spectrum (``FFT`` points), ``BANDS`` triangular mel filters from 0 to 8 kHz
(the HTK mel scale, mel = 2595 log10(1 + f / 700)), then decibels. Frame t is centred on sample
t * HOP. The decibels are clipped to the ``RANGE_DB`` below the loudest band of the whole corpus
and stored in ``STEP_DB`` steps as uint8 (dB = low_db + STEP_DB * q, low_db in the metadata),
which a recogniser does not miss and which makes the file compress to 1.7 MB (LZMA). A phoneme's
segment is the frames from its start to the next phoneme's (or pause's) start.

**Why these choices.** Phonemes, not letters, are the labels because they are what the audio
carries: from letters, a recogniser would also have to guess the spelling of words it never heard
(English spells one sound in many ways), and phoneme labels make the task phone recognition, as on
the TIMIT corpus. Single words keep utterances short (53 frames on average), so that 3,000 of them
fit in under 2 MB and an epoch over the training words takes about two seconds on one CPU core.
Splitting by word and by voice makes the test honest: a recogniser cannot pass it by remembering
words or voices.

**Reproducible.** eSpeak NG keeps some state from one word to the next (the first word of a run is,
sample for sample, what ``espeak-ng -w`` writes; later ones differ a little), so the file is
reproducible as a whole: the same eSpeak NG version and gensim file give the same bytes, in this
order (made twice, compared). The file records the eSpeak NG version.
"""
import ctypes
import io
import json
import lzma
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np

WORDS = 3000
ACCENTS = ("en-us", "en")  # American, British (eSpeak NG's voice "en" is en-gb)
VARIANTS = {"train": ("m1", "m2", "m3", "m4", "m5", "m8", "f1", "f2", "f3"), "validation": ("m6", "f5"),
            "test": ("m7", "f4")}
RATES = (140, 220)  # words per minute, uniform (eSpeak NG's default is 175)
PITCHES = (30, 70)  # base pitch on eSpeak NG's 0-100 scale, uniform (default 50)
SEED = 0
SAMPLE_RATE = 22050  # eSpeak NG's output
WINDOW, HOP = 551, 220  # 25 ms and 10 ms (9.98 ms) at 22,050 Hz
FFT = 1024
BANDS, TOP_HZ = 24, 8000
RANGE_DB, STEP_DB = 80.0, 1.5
OUTPUT = Path(__file__).with_name("spoken_words.npz.xz")

# libespeak-ng's API (speak_lib.h): synchronous output, phoneme events, parameter ids, event types
AUDIO_OUTPUT_SYNCHRONOUS, INITIALIZE_PHONEME_EVENTS = 2, 0x0001
RATE, PITCH = 1, 3
EVENT_LIST_TERMINATED, EVENT_PHONEME = 0, 7


class _EventId(ctypes.Union):
    _fields_ = [("number", ctypes.c_int), ("name", ctypes.c_char_p), ("string", ctypes.c_char * 8)]


class _Event(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("unique_identifier", ctypes.c_uint), ("text_position", ctypes.c_int),
                ("length", ctypes.c_int), ("audio_position", ctypes.c_int), ("sample", ctypes.c_int),
                ("user_data", ctypes.c_void_p), ("id", _EventId)]


_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.POINTER(_Event))


class Synthesiser:
    """eSpeak NG's library, speaking one text at a time: the samples and the phonemes it said, with their starts."""

    def __init__(self):
        try:
            self.library = ctypes.CDLL("libespeak-ng.so.1")
        except OSError as error:
            raise OSError("eSpeak NG's library is missing: `apt-get install espeak-ng` installs it") from error
        rate = self.library.espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, None, INITIALIZE_PHONEME_EVENTS)
        if rate != SAMPLE_RATE:
            raise RuntimeError(f"eSpeak NG speaks at {rate} Hz here, not {SAMPLE_RATE}")
        self.library.espeak_Info.restype = ctypes.c_char_p
        self.version = self.library.espeak_Info(None).decode()
        self._chunks, self._phonemes = [], []
        self._callback = _CALLBACK(self._receive)  # kept: the library calls it while it speaks
        self.library.espeak_SetSynthCallback(self._callback)

    def _receive(self, samples, count, events) -> int:
        if count > 0:
            self._chunks.append(np.ctypeslib.as_array(samples, (count,)).copy())
        i = 0
        while events[i].type != EVENT_LIST_TERMINATED:
            if events[i].type == EVENT_PHONEME:
                self._phonemes.append((events[i].id.string.decode(), events[i].sample))
            i += 1
        return 0  # go on

    def say(self, text: str, voice: str, rate: int, pitch: int) -> tuple[np.ndarray, list[tuple[str, int]]]:
        """int16 samples of ``text`` in ``voice`` (e.g. ``en-us+f1``), and every phoneme (pauses too) with its
        first sample."""
        if self.library.espeak_SetVoiceByName(voice.encode()) != 0:
            raise ValueError(f"eSpeak NG has no voice {voice}")
        self.library.espeak_SetParameter(RATE, rate, 0)
        self.library.espeak_SetParameter(PITCH, pitch, 0)
        self._chunks, self._phonemes = [], []
        data = text.encode()
        self.library.espeak_Synth(data, len(data) + 1, 0, 0, 0, 0, None, None)  # returns when it has spoken
        return np.concatenate(self._chunks), self._phonemes


def mel_filterbank(bands: int = BANDS, fft: int = FFT, sample_rate: int = SAMPLE_RATE,
                   top_hz: float = TOP_HZ) -> np.ndarray:
    """``[bands, fft // 2 + 1]`` triangular filters, their peaks equally spaced on the HTK mel scale from 0 Hz
    to ``top_hz``; each rises from the previous band's peak and falls to the next one's."""
    def mel(hz):
        return 2595 * np.log10(1 + hz / 700)

    peaks = 700 * (10 ** (np.linspace(0, mel(top_hz), bands + 2) / 2595) - 1)  # Hz, with both edges
    bins = np.arange(fft // 2 + 1) * sample_rate / fft
    rising = (bins - peaks[:-2, None]) / (peaks[1:-1, None] - peaks[:-2, None])
    falling = (peaks[2:, None] - bins) / (peaks[2:, None] - peaks[1:-1, None])
    return np.clip(np.minimum(rising, falling), 0, None)


def log_mel(samples: np.ndarray, filters: np.ndarray) -> np.ndarray:
    """Decibels ``[T, bands]`` of the mel-filtered power spectrum of the int16 ``samples`` scaled to [-1, 1),
    frame t centred on sample t * HOP (the signal is padded with WINDOW // 2 zeros at both ends)."""
    signal = np.pad(samples / 32768.0, WINDOW // 2)
    starts = np.arange(0, len(signal) - WINDOW + 1, HOP)
    frames = signal[starts[:, None] + np.arange(WINDOW)] * np.hanning(WINDOW)
    power = np.abs(np.fft.rfft(frames, FFT)) ** 2
    return 10 * np.log10(np.maximum(power @ filters.T, 1e-12))


def frequent_words(n: int = WORDS) -> list[str]:
    """The ``n`` most frequent words of the Lee corpus made of letters only, ties in alphabetical order."""
    from seqmodels.data.news_text import news_words  # reads gensim's copy: only when the data is made

    counts = Counter(word for document in news_words() for word in document if word.isalpha())
    return sorted(counts, key=lambda word: (-counts[word], word))[:n]


def make(words: list[str], seed: int = SEED) -> dict[str, np.ndarray]:
    """Every array of the file (see the loader, ``seqmodels.data.spoken_words``, for what each holds)."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(words))
    n_train, n_validation = int(0.8 * len(words)), int(0.1 * len(words))
    split_of = np.zeros(len(words), dtype=np.uint8)
    split_of[order[n_train:n_train + n_validation]], split_of[order[n_train + n_validation:]] = 1, 2
    speaker = Synthesiser()
    filters = mel_filterbank()
    decibels, utterances = [], []
    for word, split in zip(words, split_of):
        accent = ACCENTS[rng.integers(len(ACCENTS))]
        variants = VARIANTS[("train", "validation", "test")[split]]
        variant = variants[rng.integers(len(variants))]
        rate, pitch = int(rng.integers(RATES[0], RATES[1] + 1)), int(rng.integers(PITCHES[0], PITCHES[1] + 1))
        samples, said = speaker.say(word, f"{accent}+{variant}", rate, pitch)
        frames = log_mel(samples, filters)
        starts = [round(sample / HOP) for _, sample in said]
        phonemes = [(name, first, end) for (name, _), first, end in zip(said, starts, [*starts[1:], len(frames)])
                    if not name.startswith("_")]
        decibels.append(frames)
        utterances.append((word, accent, variant, rate, pitch, split, phonemes))
    top = np.ceil(max(frames.max() for frames in decibels))
    inventory = sorted({name for *_, phonemes in utterances for name, _, _ in phonemes})
    index = {name: i for i, name in enumerate(inventory)}
    quantised = [np.round((np.clip(d, top - RANGE_DB, top) - (top - RANGE_DB)) / STEP_DB).astype(np.uint8)
                 for d in decibels]
    metadata = {
        "espeak_ng_version": speaker.version, "made_by": "python -m seqmodels.data.make_spoken_words",
        "sample_rate": SAMPLE_RATE, "window": WINDOW, "hop": HOP, "fft": FFT, "bands": BANDS, "top_hz": TOP_HZ,
        "low_db": float(top - RANGE_DB), "step_db": STEP_DB, "rates": RATES, "pitches": PITCHES, "seed": seed,
        "variants": VARIANTS, "accents": ACCENTS}
    phoneme_lists = [phonemes for *_, phonemes in utterances]
    return {
        "metadata": np.array(json.dumps(metadata)),
        "frames": np.concatenate(quantised),
        "frame_counts": np.array([len(q) for q in quantised], dtype=np.uint16),
        "inventory": np.array(inventory),
        "phonemes": np.array([index[name] for p in phoneme_lists for name, _, _ in p], dtype=np.uint8),
        "phoneme_counts": np.array([len(p) for p in phoneme_lists], dtype=np.uint8),
        "segments": np.array([(first, end) for p in phoneme_lists for _, first, end in p], dtype=np.uint16),
        "words": np.array([u[0] for u in utterances]),
        "accents": np.array([u[1] for u in utterances]),
        "variants": np.array([u[2] for u in utterances]),
        "rates": np.array([u[3] for u in utterances], dtype=np.uint16),
        "pitches": np.array([u[4] for u in utterances], dtype=np.uint8),
        "splits": np.array([u[5] for u in utterances], dtype=np.uint8),
    }


def check_against_the_command_line(arrays: dict[str, np.ndarray]) -> None:
    """Every utterance's phonemes are what ``espeak-ng -x`` prints for its word and accent, stress marks dropped."""
    names = arrays["inventory"][arrays["phonemes"]].tolist()
    ends = np.cumsum(arrays["phoneme_counts"]).tolist()
    said = [names[end - n:end] for n, end in zip(arrays["phoneme_counts"].tolist(), ends)]
    for accent in ACCENTS:
        chosen = [i for i, a in enumerate(arrays["accents"].tolist()) if a == accent]
        printed = subprocess.run(["espeak-ng", "-v", accent, "-q", "-x", "--sep= "], check=True, text=True,
                                 input="\n".join(arrays["words"][chosen].tolist()), capture_output=True).stdout
        for i, line in zip(chosen, printed.splitlines(), strict=True):
            phonemes = [name for name in (token.strip("'%,=") for token in line.split()) if name]
            if phonemes != said[i]:
                raise RuntimeError(f"{arrays['words'][i]} ({accent}): said {said[i]}, espeak-ng -x prints {phonemes}")


def main() -> None:
    arrays = make(frequent_words())
    check_against_the_command_line(arrays)
    file = io.BytesIO()
    np.savez(file, **arrays)
    OUTPUT.write_bytes(lzma.compress(file.getvalue(), preset=9 | lzma.PRESET_EXTREME))
    print(f"{OUTPUT}: {len(arrays['words'])} utterances, {len(arrays['frames'])} frames, "
          f"{len(arrays['inventory'])} phonemes, {OUTPUT.stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
