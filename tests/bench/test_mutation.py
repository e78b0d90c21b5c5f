"""bench/mutation.py: its operators change one thing inside the solution regions, a wrong program is
killed and the unchanged one is not, and the known weak spots of the tests are covered."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
_spec = importlib.util.spec_from_file_location("mutation", BENCH / "mutation.py")
mutation = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutation)

CELL = '''import torch


def f(x, mask, n):
    """Outside the region nothing changes: 1 + 1."""
    y = 1
    ### BEGIN SOLUTION
    z = x[0:n].T * 2 + y
    return z.masked_fill(~mask, 0.0).sum(dim=-1), z
    ### END SOLUTION
'''


def test_each_operator_changes_one_thing_inside_the_solution_region():
    mutants = mutation.mutants_of("00_x", 3, mutation.Cell("answer", "f", CELL))
    changes = {(m.operator, m.before, m.after) for m in mutants}
    assert {("arithmetic", "x[0:n].T * 2 + y", "x[0:n].T * 2 - y"), ("constant", "x[0:n].T * 2", "x[0:n].T * 3"),
            ("slice", "x[0:n]", "x[0:n + 1]"), ("slice", "x[0:n]", "x[:n]"), ("transpose", "x[0:n].T", "x[0:n]"),
            ("mask", "z.masked_fill(~mask, 0.0)", "z"), ("mask", "z.masked_fill(~mask, 0.0)", "z.masked_fill(mask, 0.0)"),
            ("dim", "z.masked_fill(~mask, 0.0).sum(dim=-1)", "z.masked_fill(~mask, 0.0).sum(dim=0)"),
            ("dim", "z.masked_fill(~mask, 0.0).sum(dim=-1)", "z.masked_fill(~mask, 0.0).sum()"),
            ("return", "return (z.masked_fill(~mask, 0.0).sum(dim=-1), z)",
             "return (z, z.masked_fill(~mask, 0.0).sum(dim=-1))")} <= changes
    assert len({m.source for m in mutants}) == len(mutants) and all(m.function == "f" for m in mutants)
    outside = CELL.split("### BEGIN SOLUTION")[0]
    assert all(m.source.startswith(outside) for m in mutants)  # the docstring and `y = 1` stay as they are
    assert [m.key for m in mutants] == [m.key for m in mutation.mutants_of("00_x", 3, mutation.Cell("answer", "f", CELL))]
    equivalent = {m.after: m.equivalent for m in mutants if m.equivalent}
    assert equivalent == {"x[:n]": "a slice from 0 starts at the start"}


SAMPLER = '''def sample(logits, generator, top_k=None, top_p=None):
    ### BEGIN SOLUTION
    log_p = torch.log_softmax(logits, dim=-1)
    if top_k is not None:
        log_p = cut(log_p, min(top_k, log_p.shape[-1]))
    if top_p is not None:
        log_p = nucleus(log_p, top_p).clamp(min=-1e9)
    best = min(p for p in range(3) if p > 0)
    return torch.multinomial(probabilities(log_p, top_k, top_p), 1, generator=generator)
    ### END SOLUTION
'''


def test_the_operators_for_sampling_and_subword_mistakes():
    """Issue 38: the cuts in the other order, log of softmax, top_k unbounded, ties broken by counting order, an
    argument not passed on, and draws from a copy of the generator."""
    mutants = mutation.mutants_of("00_x", 3, mutation.Cell("answer", "sample", SAMPLER))
    changes = {(m.operator, m.after) for m in mutants}
    assert {("order", "if top_p is not None: then if top_k is not None:"),
            ("unstable", "torch.log(torch.softmax(logits, dim=-1))"),
            ("bound", "top_k"), ("bound", "nucleus(log_p, top_p)"),
            ("tie", "next((p for p in range(3) if p > 0))"),
            ("argument", "probabilities(log_p, top_k)"),
            ("generator", "torch.multinomial(probabilities(log_p, top_k, top_p), 1, "
                          "generator=torch.Generator(generator.device).set_state(generator.get_state()))")} <= changes
    swapped = next(m for m in mutants if m.operator == "order").source
    compile(swapped, "<mutant>", "exec")  # the swapped blocks keep the function's indentation
    assert swapped.index("if top_p is not None") < swapped.index("if top_k is not None")
    assert all(not m.before.startswith("torch.") for m in mutants if m.operator == "argument")  # only the notebook's


def test_the_tool_kills_wrong_build_vocabs_and_grades_the_unchanged_notebook_as_passing(tmp_path):
    done = subprocess.run([sys.executable, str(BENCH / "mutation.py"), "01_tokens", "--functions", "build_vocab",
                           "--jobs", "2", "--json", str(tmp_path / "m.json")], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    report = json.loads((tmp_path / "m.json").read_text())["chapters"][0]
    rows = report["mutants"]
    assert rows and {row["function"] for row in rows} == {"build_vocab"} and report["total"]["kill_rate"] == 1.0
    off_by_one = next(row for row in rows if row["key"].endswith("| kept[:max_size] -> kept[:max_size + 1]"))
    assert off_by_one["status"] == "killed" and off_by_one["killed_by"] == ["test_build_vocab_min_freq_max_size"]
    assert "build_vocab" in done.stdout and "100.0%" in done.stdout

    cells = mutation.load_cells(mutation.SOLUTIONS / "01_tokens" / "01_tokens.ipynb")
    results = mutation.grade_mutant("01_tokens", cells)
    assert results and all(results.values()) and set(results) == {c.grade_id for c in cells if c.kind == "test"}


def _replaced(cells: list, grade_id: str, source: str) -> tuple[int, str]:
    return next(i for i, cell in enumerate(cells) if cell.grade_id == grade_id), source


def test_the_known_weak_spots_are_killed():
    """Answers that the tests used to pass: case-folding or special-dropping encode, decode by dict position,
    most_similar counting repeated excluded ids, analogy assuming three distinct question words."""
    correct_decode = ("\n\ndef decode(ids, vocab):\n    token_of = {i: t for t, i in vocab.items()}\n"
                      "    return [token_of[i] for i in ids]\n")
    correct_encode = "def encode(tokens, vocab, unk='[UNK]'):\n    return [vocab.get(t, vocab[unk]) for t in tokens]\n"
    cells = mutation.load_cells(mutation.SOLUTIONS / "01_tokens" / "01_tokens.ipynb")
    wrong = [
        "def encode(tokens, vocab, unk='[UNK]'):\n    return [vocab.get(t.lower(), vocab[unk]) for t in tokens]\n"
        + correct_decode,
        "def encode(tokens, vocab, unk='[UNK]'):\n    return [vocab.get(t, vocab[unk]) for t in tokens if t != '[PAD]']\n"
        + correct_decode,
        correct_encode + "\n\ndef decode(ids, vocab):\n    return [list(vocab)[i] for i in ids]\n",
    ]
    results = list(mutation.grade_mutants("01_tokens", cells, [_replaced(cells, "encode_decode", s) for s in wrong], jobs=2))
    assert [r["outcome"] for r in results] == ["failed"] * 3, results
    assert all(r["tests"]["test_encode_decode_more"] for r in results)  # the worked examples pass all three

    cells = mutation.load_cells(mutation.SOLUTIONS / "03_embeddings" / "03_embeddings.ipynb")
    counts_repeats = ("def most_similar(q, E, k, exclude=()):\n    scores = cosine_similarity(E, q).clone()\n"
                      "    scores[list(exclude)] = float('-inf')\n    k = min(k, E.shape[0] - len(list(exclude)))\n"
                      "    return scores.topk(k).indices.tolist()\n")
    three_distinct = ("def analogy(a, b, c, E, vocab, k=1):\n    ids = [vocab[a], vocab[b], vocab[c]]\n"
                      "    word_of = {i: w for w, i in vocab.items()}\n"
                      "    target = E[ids[1]] - E[ids[0]] + E[ids[2]]\n"
                      "    return [word_of[i] for i in most_similar(target, E, min(k, len(vocab) - 3), exclude=ids)]\n")
    changes = [_replaced(cells, "most_similar", counts_repeats), _replaced(cells, "analogy", three_distinct)]
    results = list(mutation.grade_mutants("03_embeddings", cells, changes, jobs=2))
    assert [r["outcome"] for r in results] == ["failed"] * 2, results
    assert "test_most_similar_edges" in results[0]["tests"] and results[0]["tests"]["test_most_similar_edges"]
    assert results[1]["tests"]["test_analogy_excludes_inputs"]
