"""Which graded function builds on which, read from the solutions, and the "fix it first" hint it gives."""
import nbformat

from grading.instructor.course import SOLUTIONS
from grading.instructor.verdicts.checker import graded_functions
from grading.student.dependencies import blamed, blockers, fix_first, graded_calls, subjects


def calls_of(chapter: str) -> dict[str, set[str]]:
    return graded_calls(graded_functions(nbformat.read(SOLUTIONS / chapter / f"{chapter}.ipynb", as_version=4)))


def test_the_chapters_functions_that_build_on_others_are_found_in_the_solutions():
    assert calls_of("05_lstm_gru")["lstm_encode"] == {"lstm_step"}
    twelve = calls_of("12_transformer")
    assert twelve["encoder_block"] == {"attention_heads", "position_wise_ffn"}
    assert twelve["transformer_encode"] == {"encoder_block", "attention_heads", "position_wise_ffn"}
    assert twelve["attention_heads"] == set()
    assert calls_of("11_seq2seq")["multi_head_attention"] == {"scaled_dot_product_attention"}
    assert calls_of("06_bidirectional")["bilstm_encode"] == {"reverse_padded"}


def test_the_hint_names_the_first_failing_function_and_the_route():
    twelve = calls_of("12_transformer")
    test_cell = "call(attention_heads, q, k, v)\ncall(encoder_block, x, mask, params)"
    assert subjects(test_cell, twelve) == {"encoder_block"}
    failing = {"attention_heads", "encoder_block"}
    assert blockers("transformer_encode", twelve, failing) == ["attention_heads"]
    assert blockers("attention_heads", twelve, failing) == []
    assert fix_first("transformer_encode", ["attention_heads"], twelve) == (
        "transformer_encode builds on your attention_heads (through your encoder_block), which fails its own tests "
        "above: fix attention_heads first, then run this test again")


def test_a_failure_is_blamed_on_what_it_builds_on_unless_it_is_not_written_yet():
    """One function for the notebook (grading.student.progress) and the feedback (the checker)."""
    twelve = calls_of("12_transformer")
    message = "encoder_block(<x>) returned wrong values\n  expected: 1\n  got:      2\nHint: norm1 after the residual"
    assert blamed(message, {"encoder_block"}, twelve, {"attention_heads"}) == (
        "encoder_block(<x>) returned wrong values\n  expected: 1\n  got:      2\nHint: encoder_block builds on your "
        "attention_heads, which fails its own tests above: fix attention_heads first, then run this test again")
    assert blamed(message, {"encoder_block"}, twelve, {"warmup_rate"}) == message
    stub = "encoder_block is not implemented yet: replace `raise NotImplementedError()` with your code."
    assert blamed(stub, {"encoder_block"}, twelve, {"attention_heads"}) == stub
