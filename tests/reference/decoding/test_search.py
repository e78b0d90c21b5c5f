"""greedy_decode and beam_search (with length normalisation and the coverage penalty) against exhaustive
enumeration on tiny toy models."""
import itertools
import math

import pytest
import torch

from seqmodels.decoding.search import beam_search, coverage_penalty, greedy_decode

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


S = 3  # source positions of the toy attention


def toy_attention(seed: int):
    """A fixed random attention distribution over S source positions for every prefix."""
    def attention(prefix: list[int]) -> torch.Tensor:
        g = torch.Generator().manual_seed(hash((seed, "attention", *prefix)) % 2 ** 31)
        return torch.softmax(2 * torch.randn(S, generator=g), dim=0)
    return attention


def penalty_by_hand(attention, tokens: list[int], beta: float) -> float:
    """beta * sum_j log min(sum_t a_tj, 1), the sums written out."""
    weights = [attention([BOS, *tokens[:t]]).tolist() for t in range(len(tokens))]
    return beta * sum(math.log(min(sum(row[j] for row in weights), 1.0)) for j in range(S))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("alpha, beta", [(0.0, 0.5), (0.7, 1.0), (1.0, 3.0)])
def test_with_a_coverage_penalty_a_wide_beam_is_exhaustive_search(seed, alpha, beta):
    step, attention, max_len = toy_model(seed), toy_attention(seed), 4
    everything = every_hypothesis(step, max_len)
    expected = sorted(everything, key=lambda h: -(h[1] / len(h[0]) ** alpha + penalty_by_hand(attention, h[0], beta)))
    found = beam_search(step, BOS, EOS, beam_size=V ** max_len, max_len=max_len, alpha=alpha,
                        attention=attention, beta=beta)
    assert [tokens for tokens, _ in found] == [tokens for tokens, _ in expected]
    assert [score for _, score in found] == pytest.approx([score for _, score in expected])  # still plain log P
    assert [tokens for tokens, _ in expected] != [tokens for tokens, _ in sorted(everything, key=lambda h: -h[1])]


def test_the_coverage_penalty_prefers_the_output_that_read_the_whole_source():
    # [3] (P = 0.6) stops after looking at source position 0 only: coverage (0.9, 0.1), cp = log 0.9 + log 0.1;
    # [1, 3] (P = 0.4) looks at position 0, then 1: coverage (1.0, 1.0), cp = 0
    step = table_model({(): [0, 0.4, 0, 0.6], (1,): [0, 0, 0, 1]})
    looks = {(): [0.9, 0.1], (1,): [0.1, 0.9]}
    attention = lambda prefix: torch.tensor(looks[tuple(prefix[1:])])
    assert coverage_penalty(attention, BOS, [EOS], 1.0) == pytest.approx(math.log(0.9) + math.log(0.1))
    assert coverage_penalty(attention, BOS, [1, EOS], 1.0) == pytest.approx(0.0, abs=1e-6)
    assert beam_search(step, BOS, EOS, beam_size=2, max_len=2)[0][0] == [EOS]
    best = beam_search(step, BOS, EOS, beam_size=2, max_len=2, attention=attention, beta=1.0)[0]
    assert best[0] == [1, EOS] and best[1] == pytest.approx(math.log(0.4))
    # attending twice to the same position covers it no more than once
    assert coverage_penalty(lambda prefix: torch.tensor([1.0, 0.0 + 1e-3]), BOS, [1, 1, EOS], 2.0) == pytest.approx(
        2 * math.log(3e-3))


def test_a_penalty_without_attention_is_refused():
    with pytest.raises(ValueError, match="attention"):
        beam_search(toy_model(0), BOS, EOS, beam_size=2, max_len=3, beta=1.0)


def test_beta_zero_is_no_penalty_even_for_a_position_never_attended():
    never = lambda prefix: torch.tensor([1.0, 0.0])
    assert coverage_penalty(never, BOS, [1, EOS], 0.0) == 0.0
    assert coverage_penalty(never, BOS, [1, EOS], 1.0) == -math.inf
    step = toy_model(3)
    assert beam_search(step, BOS, EOS, 3, 4, attention=never) == beam_search(step, BOS, EOS, 3, 4)
