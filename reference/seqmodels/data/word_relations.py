"""A generated corpus whose words stand in regular relations, for learning word vectors (chapter 03).

Every sentence is drawn from small templates about people (by gender, rank and age) and about
countries (their capital, language and currency). Each attribute brings its own context words:
*he*/*his* or *she*/*her* for gender, *throne* and *palace* for royalty, *city* for a capital,
*country* for a country, the same language for a country and its capital. A word's contexts
are therefore a mixture of its attributes' contexts, which is what skip-gram turns into vectors
whose differences encode the attributes: king - man + woman lands near queen, and
paris - france + italy near rome. Nothing is downloaded; the same seed gives the same corpus.
"""
import torch

# (male, female, rank): rank picks the words a person is seen with
PEOPLE = [
    ("king", "queen", "royal"),
    ("prince", "princess", "royal_young"),
    ("man", "woman", "common"),
    ("boy", "girl", "common_young"),
    ("father", "mother", "family"),
    ("son", "daughter", "family_young"),
]
# (country, capital, language, currency)
COUNTRIES = [
    ("france", "paris", "french", "euro"),
    ("italy", "rome", "italian", "euro"),
    ("spain", "madrid", "spanish", "euro"),
    ("germany", "berlin", "german", "euro"),
    ("japan", "tokyo", "japanese", "yen"),
    ("russia", "moscow", "russian", "rouble"),
    ("egypt", "cairo", "arabic", "pound"),
    ("china", "beijing", "chinese", "yuan"),
]
_RANK_WORDS = {
    "royal": ["throne", "crown", "palace", "kingdom", "rules"],
    "royal_young": ["palace", "crown", "young", "heir", "castle"],
    "common": ["farm", "village", "works", "job", "market"],
    "common_young": ["school", "plays", "young", "toy", "village"],
    "family": ["home", "family", "children", "works", "garden"],
    "family_young": ["home", "family", "young", "school", "parents"],
}
_GENDER_WORDS = {"m": (["he", "his", "him"], "male"), "f": (["she", "her", "her"], "female")}
_PERSON_TEMPLATES = [
    "the {noun} and {poss} {rank}",
    "{subj} is the {noun} of the {rank}",
    "the {noun} loves {poss} {rank}",
    "the {gender} {noun} {rank}",
    "the {rank} {noun} said {subj} {rank2}",
    "{subj} saw the {noun} at the {rank}",
    "the {noun} and {poss} {rank} {rank2}",
]
_COUNTRY_TEMPLATES = [
    "{capital} is the capital of {country}",
    "{capital} is a big city in {country}",
    "people in {capital} speak {language}",
    "people in {country} speak {language}",
    "{country} is a large country",
    "the {language} country {country} pays in {currency}",
    "the city of {capital} is {language}",
    "{capital} is a busy city",
    "we visited {country} and its {language} people",
    "we flew to the city {capital} by plane",
]


def _pick(options: list, generator: torch.Generator):
    return options[int(torch.randint(len(options), (1,), generator=generator))]


def person_sentence(generator: torch.Generator) -> list[str]:
    male, female, rank = _pick(PEOPLE, generator)
    gender = _pick(["m", "f"], generator)
    (subj, poss, _), gender_word = _GENDER_WORDS[gender]
    words = _RANK_WORDS[rank]
    text = _pick(_PERSON_TEMPLATES, generator).format(
        noun=male if gender == "m" else female, subj=subj, poss=poss, gender=gender_word,
        rank=_pick(words, generator), rank2=_pick(words, generator))
    return text.split()


def country_sentence(generator: torch.Generator) -> list[str]:
    country, capital, language, currency = _pick(COUNTRIES, generator)
    text = _pick(_COUNTRY_TEMPLATES, generator).format(
        country=country, capital=capital, language=language, currency=currency)
    return text.split()


def relation_corpus(n: int = 20000, seed: int = 0) -> list[list[str]]:
    """``n`` tokenised sentences, half about people and half about countries, in a seeded order."""
    generator = torch.Generator().manual_seed(seed)
    return [person_sentence(generator) if torch.rand(1, generator=generator) < 0.5 else country_sentence(generator)
            for _ in range(n)]


def analogy_questions() -> list[tuple[str, str, str, str]]:
    """(a, b, c, d): a is to b as c is to d, for every pair of gender pairs and of country-capital pairs."""
    questions = [(m1, f1, m2, f2) for m1, f1, _ in PEOPLE for m2, f2, _ in PEOPLE if m1 != m2]
    questions += [(c1, k1, c2, k2) for c1, k1, *_ in COUNTRIES for c2, k2, *_ in COUNTRIES if c1 != c2]
    return questions
