"""The trusted checker (grading.instructor.verdicts.checker): verdicts computed where no student code runs.

Each test hands the checker a student notebook built from the released one, with some answer
cells replaced, and reads its verdicts: solutions earn every test under any secret salt, and
answers that attack the grader earn nothing they did not deserve.
"""
import nbformat
import pytest

from grading.instructor.course import NOTEBOOKS, SOLUTIONS, chapters
from grading.instructor.example_class import _without_markers
from grading.instructor.verdicts import checker
from grading.instructor.verdicts.sandbox import bubblewrap


def notebook(chapter: str, answers: dict[str, str] | None = None, from_solution: bool = True):
    """The released notebook with the solution's answers (or the stubs), and ``answers`` replacing some cells."""
    nb = nbformat.read(NOTEBOOKS / chapter / f"{chapter}.ipynb", as_version=4)
    solution = {c.metadata["nbgrader"]["grade_id"]: c.source
                for c in nbformat.read(SOLUTIONS / chapter / f"{chapter}.ipynb", as_version=4).cells
                if c.metadata.get("nbgrader", {}).get("solution")}
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if from_solution and grade_id in solution and cell.cell_type == "code":
            cell.source = _without_markers(solution[grade_id])
        if grade_id in (answers or {}):
            cell.source = answers[grade_id]
    return nb


def failing(result: dict) -> set[str]:
    return {grade_id for grade_id, verdict in result["verdicts"].items() if not verdict["passed"]}


@pytest.mark.parametrize("chapter", chapters())
def test_the_solution_earns_every_test_with_another_salt(chapter):
    result = checker.check(chapter, notebook(chapter), cell_s=60, salt=987654321)
    assert failing(result) == set(), {k: v["evalue"][:300] for k, v in result["verdicts"].items() if not v["passed"]}


def test_the_untouched_notebook_earns_nothing_and_says_what_to_do():
    result = checker.check("02_pooling", notebook("02_pooling", from_solution=False), cell_s=30)
    assert failing(result) == set(result["verdicts"])
    assert all("not implemented yet" in v["evalue"] for v in result["verdicts"].values())


LSTM_WITH_FAKE_ORACLE = '''
import types, torch
nn = types.SimpleNamespace(LSTMCell=lambda *a: None)  # the hidden tests' oracle, if they shared this namespace
def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    return h, c
'''


def test_a_fake_oracle_in_the_answers_does_not_reach_the_tests():
    result = checker.check("05_lstm_gru", notebook("05_lstm_gru", {"lstm_step": LSTM_WITH_FAKE_ORACLE}), cell_s=30)
    assert failing(result) == {"test_lstm_step_worked_example", "test_lstm_step_matches_lstmcell",
                               "test_lstm_step_large_inputs", "test_lstm_encode_full", "test_lstm_encode_padding",
                               "test_lstm_encode_edges"}


FORBIDDEN_IN_A_THREAD = '''
from concurrent.futures import ThreadPoolExecutor
def gate_update(s, x, g):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(torch.lerp, s, x, g).result()
'''


def test_a_forbidden_call_in_a_thread_is_seen():
    result = checker.check("05_lstm_gru", notebook("05_lstm_gru", {"gate_update": FORBIDDEN_IN_A_THREAD}), cell_s=30)
    assert failing(result) == {"test_gate_update_hard", "test_gate_update_soft"}
    assert "torch.lerp" in result["verdicts"]["test_gate_update_hard"]["evalue"]


def test_an_endless_loop_and_a_crash_cost_only_their_own_tests():
    answers = {"gate_update": "def gate_update(s, x, g):\n    while True:\n        pass\n",
               "count_parameters": "import os\ndef count_parameters(kind, i, k):\n    os._exit(3)\n"}
    result = checker.check("05_lstm_gru", notebook("05_lstm_gru", answers), cell_s=3)
    assert failing(result) == {"test_gate_update_hard", "test_gate_update_soft", "test_count_parameters_rnn",
                               "test_count_parameters_gated", "test_count_parameters_sizes"}
    assert "longer than this test's limit" in result["verdicts"]["test_gate_update_hard"]["evalue"]
    assert "Python stopped" in result["verdicts"]["test_count_parameters_rnn"]["evalue"]


def test_an_answer_cell_that_hangs_or_exits_while_loading_costs_only_its_own_tests():
    answers = {"gate_update": "while True:\n    pass\n",
               "count_parameters": "import os\nos._exit(0)\n"}
    result = checker.check("05_lstm_gru", notebook("05_lstm_gru", answers), cell_s=3, load_s=10)
    assert failing(result) == {"test_gate_update_hard", "test_gate_update_soft", "test_count_parameters_rnn",
                               "test_count_parameters_gated", "test_count_parameters_sizes"}
    reasons = dict(result["load_failures"])
    assert "did not finish running" in reasons["gate_update"] and "stopped Python" in reasons["count_parameters"]


# stops the worker where it is loaded in one request with other chunks, as each test cell's fresh worker loads the
# chunks that loaded one by one before (grading.instructor.verdicts.answers): found through the worker's own frames
STOPS_WHEN_LOADED_WITH_OTHERS = """
import os, sys
frame_ = sys._getframe()
while frame_ is not None and "message" not in frame_.f_locals:
    frame_ = frame_.f_back
if frame_ is not None and len(frame_.f_locals["message"]["chunks"]) > 1:
    os._exit(0)
"""


def test_a_chunk_that_stops_the_worker_only_when_loaded_with_others_is_loaded_one_by_one_again():
    solution = {c.metadata["nbgrader"]["grade_id"]: _without_markers(c.source)
                for c in nbformat.read(SOLUTIONS / "05_lstm_gru" / "05_lstm_gru.ipynb", as_version=4).cells
                if c.metadata.get("nbgrader", {}).get("solution")}
    answers = {"count_parameters": STOPS_WHEN_LOADED_WITH_OTHERS + solution["count_parameters"]}
    result = checker.check("05_lstm_gru", notebook("05_lstm_gru", answers), cell_s=30)
    assert failing(result) == set() and result["load_failures"] == [], result


def test_answers_cannot_import_the_reference_or_the_grader():
    answers = {"gate_update": "from seqmodels import gate_update\n",
               "count_parameters": "import grading.student.checks\ndef count_parameters(kind, i, k):\n    return 0\n"}
    result = checker.check("05_lstm_gru", notebook("05_lstm_gru", answers), cell_s=30)
    assert {"test_gate_update_hard", "test_count_parameters_rnn"} <= failing(result)
    assert {label for label, _ in result["load_failures"]} == {"gate_update", "count_parameters"}


def test_a_hidden_failure_shows_neither_inputs_nor_expected_values():
    wrong = "def sigmoid(x):\n    return torch.where(x.abs() < 1e6, 1 / (1 + torch.exp(-x)), x)[..., :] * (x.dim() < 2)\n"
    result = checker.check("02_pooling", notebook("02_pooling", {"sigmoid": wrong}), cell_s=30)
    hidden = [v for v in result["verdicts"].values() if v["ename"] == "HiddenTestFailed"]
    assert hidden and all("expected" not in v["evalue"] and "got" not in v["evalue"] for v in hidden)


@pytest.mark.skipif(bubblewrap() is None, reason="bubblewrap cannot run here")
def test_the_sandbox_hides_the_course_from_the_answers():
    spy = (f"import os\nSEEN = os.path.exists({str(SOLUTIONS)!r})\n"
           "def count_parameters(kind, i, k):\n    return 4 * (i * k + k * k + 2 * k) if not SEEN else 0\n")
    result = checker.check("05_lstm_gru", notebook("05_lstm_gru", {"count_parameters": spy}), cell_s=30)
    assert result["sandboxed"]
    assert "test_count_parameters_rnn" in failing(result)  # 4 blocks for every kind: wrong, but only for rnn/gru
    assert "test_count_parameters_gated" in failing(result)


GATE_OF_THE_WRONG_SHAPE = '''
def gate_update(s, x, g):
    keep = 1 - g
    return g * x + torch.mm(keep, s)  # a matrix product where * was meant
'''
LSTM_CELL_THROUGH_A_HELPER = '''
def _cell(x, h, c, W_ih, W_hh, b_ih, b_hh):
    return torch.lstm_cell(x, (h, c), W_ih, W_hh, b_ih, b_hh)

def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    return _cell(x, h, c, W_ih, W_hh, b_ih, b_hh)
'''


def test_an_exception_names_the_call_and_the_students_line_and_a_shortcut_its_route():
    answers = {"gate_update": GATE_OF_THE_WRONG_SHAPE, "lstm_step": LSTM_CELL_THROUGH_A_HELPER}
    result = checker.check("05_lstm_gru", notebook("05_lstm_gru", answers), cell_s=30)
    text = result["verdicts"]["test_gate_update_hard"]["evalue"]
    assert text.startswith("RuntimeError: "), text
    assert "\n  at your line, in gate_update (cell gate_update): return g * x + torch.mm(keep, s)  # a matrix product where * was meant" in text
    assert ("\n  in the call gate_update(s=<float32 [3]>, x=<float32 [3]>, g=<float32 [3]>)") in text
    assert "/" not in text  # no path of the grader's
    text = result["verdicts"]["test_lstm_step_matches_lstmcell"]["evalue"]
    assert "lstm_step used torch.lstm_cell (through your _cell)" in text, text
    text = result["verdicts"]["test_lstm_encode_full"]["evalue"]
    assert text.startswith("lstm_step used torch.lstm_cell (through your _cell)"), text  # its own first check
    assert text.endswith("Hint: lstm_encode builds on your lstm_step, which fails its own tests above: fix lstm_step "
                         "first, then run this test again")


ADDITIVE_MASK = '''
def attention_heads(q, k, v, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, num_heads, key_mask=None,
                    causal=False):
    B, Lq, D = q.shape
    size = D // num_heads
    W, b = in_proj_weight.chunk(3), in_proj_bias.chunk(3)
    def heads(x, i):
        return (x @ W[i].T + b[i]).view(B, x.shape[1], num_heads, size).transpose(1, 2)
    scores = heads(q, 0) @ heads(k, 1).transpose(-1, -2) / size ** 0.5
    if key_mask is not None:  # a large finite number for minus infinity
        scores = scores + (~key_mask[:, None, None, :]) * -1e9
    if causal:
        scores = scores + torch.ones(Lq, k.shape[1]).triu(1) * -1e9
    out = scores.softmax(-1) @ heads(v, 2)
    return out.transpose(1, 2).reshape(B, Lq, D) @ out_proj_weight.T + out_proj_bias
'''


def test_a_finite_mask_constant_does_not_pass_for_minus_infinity():
    result = checker.check("12_transformer", notebook("12_transformer", {"attention_heads": ADDITIVE_MASK}), cell_s=30)
    assert "test_attention_heads_cross" in failing(result)
    assert "test_attention_heads_example" not in failing(result)  # right wherever the padding holds no extremes
