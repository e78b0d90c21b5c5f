"""Train, validation and test splits of a labelled data set, with the vocabulary of its training part."""
from dataclasses import dataclass, field

from seqmodels.text.vocab import build_vocab

Example = tuple[list[str], object]  # (tokens, label)


@dataclass
class Splits:
    train: list[Example]
    validation: list[Example]
    test: list[Example]
    vocab: dict[str, int] = field(default_factory=dict)  # built from the training tokens only (chapter 01)

    @classmethod
    def from_examples(cls, examples: list[Example], fractions: tuple[float, float] = (0.8, 0.1),
                      with_vocab: bool = True) -> "Splits":
        """Cut ``examples`` (already shuffled) into train / validation / test; the vocabulary comes from train."""
        n_train, n_validation = int(fractions[0] * len(examples)), int(fractions[1] * len(examples))
        train = examples[:n_train]
        return cls(train, examples[n_train:n_train + n_validation], examples[n_train + n_validation:],
                   build_vocab(tokens for tokens, _ in train) if with_vocab else {})
