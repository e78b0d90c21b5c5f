"""Chapter 13's demo assembly (seqmodels.tasks.yours): run with the solution notebook's own answers, it gives the
package's logits, tokens and token ids; the release's untouched answers are recognised, and the course's
functions stand in for them, each choice printed."""
import linecache

import nbformat
import pytest
import seqmodels
import torch
from grading.instructor.course import NOTEBOOKS, SOLUTIONS
from seqmodels.tasks.yours import (
    DEMO_FUNCTIONS,
    written,
    your_functions,
    your_gpt,
    your_tokenizer,
)
from seqmodels.text.bpe import BPETokenizer

CHAPTER = "13_gpt"
CELLS = ("given_earlier_chapters", "bpe_encode", "gpt_block", "rope", "attend_with_cache", "filter_logits",
         "sample_tokens")
SIZES = dict(dim=16, heads=4, feedforward=32, layers=2, max_len=24)


def notebook_functions(folder) -> dict:
    """The answer cells of ``folder``'s chapter 13 notebook run in a fresh namespace, each cell's source kept in
    linecache under its own name, as IPython keeps a cell's (so that inspect.getsource reads it)."""
    cells = {cell.metadata.get("nbgrader", {}).get("grade_id"): cell.source
             for cell in nbformat.read(folder / CHAPTER / f"{CHAPTER}.ipynb", as_version=4).cells}
    namespace = {}
    exec("import math\nimport torch\nfrom torch import nn\nfrom torch.nn import functional as F", namespace)  # noqa: S102
    for grade_id in CELLS:
        name = f"<{folder.name} cell {grade_id}>"
        linecache.cache[name] = (len(cells[grade_id]), None, cells[grade_id].splitlines(True), name)
        exec(compile(cells[grade_id], name, "exec"), namespace)  # noqa: S102 - the course's own notebook
    return namespace


@pytest.fixture(scope="module")
def solution():
    return notebook_functions(SOLUTIONS)


def test_the_solutions_answers_are_taken_and_the_untouched_ones_are_not(solution, capsys):
    chosen = your_functions(solution)
    assert all(chosen[name] is solution[name] for name in DEMO_FUNCTIONS)
    assert capsys.readouterr().out.split() == [word for name in DEMO_FUNCTIONS for word in (name, "yours")]
    untouched = notebook_functions(NOTEBOOKS)
    assert not any(written(untouched[name]) for name in DEMO_FUNCTIONS)
    partly = {"rope": solution["rope"], "sample_tokens": untouched["sample_tokens"]}  # the rest not defined
    chosen = your_functions(partly)
    assert chosen["rope"] is solution["rope"]
    assert all(chosen[name] is getattr(seqmodels, name) for name in DEMO_FUNCTIONS if name != "rope")
    assert capsys.readouterr().out.count("the course's (yours is not written yet)") == 4


def test_an_answer_that_does_more_than_raise_is_written():
    def half_done(x):
        """Docstring."""
        if x:
            raise NotImplementedError("the other case")
        return x

    def bare(x):
        raise NotImplementedError

    in_a_call = max(
        [lambda x: x], key=id)  # getsource gives this line, which does not parse alone
    assert written(half_done) and written(len) and written(in_a_call) and not written(bare)


@pytest.mark.parametrize("positions", ["learned", "rope"])
def test_the_solutions_gpt_is_the_packages(solution, positions):
    models = []
    for functions in (your_functions(solution), your_functions({})):
        torch.manual_seed(0)
        models.append(your_gpt(30, functions, positions, **SIZES).double())
    assert models[0].hand_written == (positions == "learned")
    assert [models[0].block_fn, models[0].rope_fn, models[0].attend_fn, models[0].sample_fn] == [
        solution[name] for name in ("gpt_block", "rope", "attend_with_cache", "sample_tokens")]
    ids = torch.randint(0, 30, (3, 10), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        torch.testing.assert_close(models[0](ids), models[1](ids), atol=1e-12, rtol=1e-12)
        # the package's fast path, checked against PyTorch's layers in tests/reference/models/test_gpt.py
        models[1].hand_written = False
        torch.testing.assert_close(models[0](ids), models[1](ids), atol=1e-12, rtol=1e-12)
    for cache in (True, False):
        tokens = [model.generate(ids[:, :4], 12, torch.Generator().manual_seed(2), temperature=0.8, top_p=0.9,
                                 cache=cache) for model in models]
        assert torch.equal(*tokens)


def test_the_solutions_tokenizer_gives_the_packages_ids(solution):
    words = "the lowest newer widest lower low new newest wider".split()
    tokenizer = BPETokenizer.train(words * 3 + ["zoë"], 12)
    ours = your_tokenizer(tokenizer, your_functions({}))
    yours = your_tokenizer(tokenizer, your_functions(solution))
    unseen = ["slowest", "renewed", "Ω"]
    assert yours.encode(words + unseen) == ours.encode(words + unseen) == tokenizer.encode(words + unseen)
    spelled = tokenizer.encoding_with(lambda word, merges: list(word))  # the words cut by the function given
    assert spelled.word_pieces("lowest") == list("lowest") != tokenizer.word_pieces("lowest")
