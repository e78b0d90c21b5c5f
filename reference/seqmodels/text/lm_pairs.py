"""Training pairs for a language model with teacher forcing (Xiao Eq. 4.10; course notes §1).

A sentence w_1 .. w_m becomes the input <SOS> w_1 .. w_m and the target w_1 .. w_m <EOS>:
the model reads the gold prefix and predicts the token that follows it at every position.
"""


def lm_pairs(ids: list[int], bos: int, eos: int) -> tuple[list[int], list[int]]:
    """``([bos, *ids], [*ids, eos])``: inputs and next-token targets, both of length ``len(ids) + 1``."""
    ids = [int(i) for i in ids]
    return [int(bos), *ids], [*ids, int(eos)]  # Xiao Eq. (4.10): Pr(<SOS>) = 1, the rest one factor per target
