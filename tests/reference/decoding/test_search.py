"""greedy_decode and beam_search against exhaustive enumeration on tiny toy models."""
import itertools

import pytest
import torch

from seqmodels.decoding.search import beam_search, greedy_decode

V, BOS, EOS = 4, 0, 3


def toy_model(seed: int):
    """A fixed random next-token distribution for every prefix (a different one per prefix)."""
    def step(prefix: list[int]) -> torch.Tensor:
        g = torch.Generator().manual_seed(hash((seed, *prefix)) % 2 ** 31)
        return torch.log_softmax(3 * torch.randn(V, generator=g), dim=0)
    return step


def every_hypothesis(step, max_len: int) -> list[tuple[list[int], float]]:
    """Every token list the decoder can return: ends at its first eos, or has max_len tokens."""
    found = []
    for length in range(1, max_len + 1):
        for tokens in itertools.product(range(V), repeat=length):
            if EOS in tokens[:-1] or (tokens[-1] != EOS and length < max_len):
                continue
            log_p = sum(float(step([BOS, *tokens[:i]])[t]) for i, t in enumerate(tokens))
            found.append((list(tokens), log_p))
    return found


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("alpha", [0.0, 0.7, 1.0])
def test_a_beam_wide_enough_to_keep_everything_is_exhaustive_search(seed, alpha):
    step, max_len = toy_model(seed), 4
    expected = sorted(every_hypothesis(step, max_len), key=lambda h: -h[1] / len(h[0]) ** alpha)
    found = beam_search(step, BOS, EOS, beam_size=V ** max_len, max_len=max_len, alpha=alpha)
    assert [tokens for tokens, _ in found] == [tokens for tokens, _ in expected]
    assert [score for _, score in found] == pytest.approx([score for _, score in expected])


@pytest.mark.parametrize("seed", range(10))
def test_greedy_is_a_beam_of_one(seed):
    step = toy_model(seed)
    [(tokens, log_p)] = beam_search(step, BOS, EOS, beam_size=1, max_len=6)
    assert greedy_decode(step, BOS, EOS, max_len=6) == tokens
    assert log_p == pytest.approx(sum(float(step([BOS, *tokens[:i]])[t]) for i, t in enumerate(tokens)))


def table_model(table: dict[tuple[int, ...], list[float]]):
    return lambda prefix: torch.tensor(table[tuple(prefix[1:])]).log()


def test_beam_finds_what_greedy_misses():
    # greedy takes token 1 (0.6) and then can only reach eos with 0.3: 0.18 in all;
    # token 2 (0.4) is followed by eos with 0.9: 0.36
    step = table_model({(): [0, 0.6, 0.4, 0], (1,): [0, 0.35, 0.35, 0.3], (2,): [0, 0.05, 0.05, 0.9],
                        (1, 1): [0, 0, 0, 1], (1, 2): [0, 0, 0, 1], (2, 1): [0, 0, 0, 1], (2, 2): [0, 0, 0, 1]})
    assert greedy_decode(step, BOS, EOS, max_len=3) == [1, 1, EOS]
    best, log_p = beam_search(step, BOS, EOS, beam_size=2, max_len=3)[0]
    assert best == [2, EOS] and log_p == pytest.approx(torch.tensor(0.36).log().item())


def test_length_normalisation_lets_a_longer_hypothesis_win():
    # [3] has P = 0.5; [1, 3] has P = 0.45 (log P / 2 is higher than log 0.5 once alpha is 1)
    step = table_model({(): [0, 0.5, 0, 0.5], (1,): [0, 0.1, 0, 0.9], (1, 1): [0, 0, 0, 1]})
    assert beam_search(step, BOS, EOS, beam_size=2, max_len=3, alpha=0.0)[0][0] == [EOS]
    assert beam_search(step, BOS, EOS, beam_size=2, max_len=3, alpha=1.0)[0][0] == [1, EOS]


def test_max_len_stops_live_hypotheses_and_they_count_as_finished():
    step = table_model({(): [0, 1, 0, 0], (1,): [0, 1, 0, 0]})
    assert greedy_decode(step, BOS, EOS, max_len=2) == [1, 1]
    assert beam_search(step, BOS, EOS, beam_size=1, max_len=2) == [([1, 1], 0.0)]
