"""Near-copies between students (grading.instructor.intake.similarity.pairs, by copydetect's winnowing).

A class of chapter 01 in which ben copied ana's answers, renaming every variable and adding
comments, and cleo, dev and eli each wrote their own: their long functions differ, their short
ones (``return E[ids]`` and the like) are the same as everybody's. Only ana and ben are paired.
Then fay copies ana's long answers too and writes two short ones herself, in a class of 30 (the others hand in
the untouched notebook): the three are a ring, reported as one group, with the same shares in every process.
"""
import csv
import os
import re
import subprocess
import sys
import textwrap

import nbformat
from grading.instructor.course import NOTEBOOKS, REPO, SOLUTIONS
from grading.instructor.intake.similarity import (
    PAGE,
    REPORT,
    answer_code,
    class_report,
    given_code,
    pairs,
)

CHAPTER = "01_tokens"
SHORT = [  # encode, decode, onehot, embed as everybody writes them
    "return [vocab.get(t, vocab[unk]) for t in tokens]",
    "inverse = {i: t for t, i in vocab.items()}\nreturn [inverse[i] for i in ids]",
    "return torch.nn.functional.one_hot(ids, V).float()",
    "return E[ids]",
]
HONEST = {  # build_vocab and pad_batch, each student's own
    "cleo": ('''
counts = {}
for sentence in corpus:
    for word in sentence:
        if word in specials:
            continue
        counts[word] = counts.get(word, 0) + 1
frequent = [w for w in counts if counts[w] >= min_freq]
frequent.sort(key=lambda w: (-counts[w], w))
if max_size is not None:
    frequent = frequent[:max_size]
vocab = {}
for word in list(specials) + frequent:
    vocab[word] = len(vocab)
return vocab''', '''
width = max(len(s) for s in seqs)
padded, masks = [], []
for s in seqs:
    gap = width - len(s)
    padded.append(list(s) + [pad_id] * gap)
    masks.append([True] * len(s) + [False] * gap)
return torch.tensor(padded, dtype=torch.long), torch.tensor(masks, dtype=torch.bool)'''),
    "dev": ('''
from itertools import chain
tally = Counter(chain.from_iterable(corpus))
for special in specials:
    tally.pop(special, None)
ranked = sorted(tally.items(), key=lambda item: (-item[1], item[0]))
chosen = [tok for tok, c in ranked if c >= min_freq][:max_size]
return dict(zip(list(specials) + chosen, range(len(specials) + len(chosen))))''', '''
lengths = torch.tensor([len(s) for s in seqs])
out = torch.nn.utils.rnn.pad_sequence([torch.tensor(s, dtype=torch.long) for s in seqs],
                                      batch_first=True, padding_value=pad_id)
mask = torch.arange(out.shape[1])[None, :] < lengths[:, None]
return out, mask'''),
    "eli": ('''
vocabulary = {s: i for i, s in enumerate(specials)}
freq = Counter()
for doc in corpus:
    freq.update(t for t in doc if t not in vocabulary)
eligible = sorted((t for t in freq if freq[t] >= min_freq), key=lambda t: (-freq[t], t))
for t in eligible[: max_size if max_size is not None else len(eligible)]:
    vocabulary[t] = len(vocabulary)
return vocabulary''', '''
n = len(seqs)
L = max(map(len, seqs))
result = torch.empty(n, L, dtype=torch.long).fill_(pad_id)
valid = torch.zeros(n, L).bool()
i = 0
while i < n:
    k = len(seqs[i])
    if k:
        result[i, :k] = torch.as_tensor(seqs[i])
        valid[i, :k] = True
    i += 1
return result, valid'''),
}
RENAMES = {"reserved": "skip_these", "counts": "how_often", "kept": "chosen_tokens", "token": "tok",
           "document": "doc", "unk_id": "fallback", "token_of": "lookup", "longest": "width", "mask": "valid",
           "row": "r", "seq": "s", "index": "position"}


def notebook(folder, chapter=CHAPTER) -> nbformat.NotebookNode:
    return nbformat.read(folder / chapter / f"{chapter}.ipynb", as_version=4)


def handed_in(bodies: list[str]) -> str:
    """The answer cells of the solution with each solution region replaced by the body given, in order."""
    regions = iter(bodies)
    code = answer_code(notebook(SOLUTIONS))
    return re.sub(r"( *)### BEGIN SOLUTION\n.*?### END SOLUTION",
                  lambda m: textwrap.indent(textwrap.dedent(next(regions)).strip(), m[1]), code, flags=re.DOTALL)


def solution_bodies() -> list[str]:
    code = answer_code(notebook(SOLUTIONS))
    return [textwrap.dedent(body) for body in re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", code, re.DOTALL)]


def disguised(body: str) -> str:
    """ana's body with every name changed and a comment before each line, as a copier hides a copy."""
    for old, new in RENAMES.items():
        body = re.sub(rf"\b{old}\b", new, body)
    return "\n".join(f"# step {n}\n{line}" for n, line in enumerate(body.strip().splitlines()))


def the_class() -> dict[str, str]:
    ana = solution_bodies()
    honest = {name: handed_in([vocab, *SHORT[:2], pad, *SHORT[2:]]) for name, (vocab, pad) in HONEST.items()}
    return {"ana": handed_in(ana), "ben": handed_in([disguised(body) for body in ana]), **honest}


def test_a_disguised_copy_is_paired_and_nobody_else():
    found = pairs(the_class(), given_code(notebook(NOTEBOOKS)))
    assert [pair.students for pair in found] == [("ana", "ben")]
    assert min(found[0].shares) >= 0.8


def test_honest_answers_that_share_the_short_functions_are_not_paired():
    honest = {name: code for name, code in the_class().items() if name not in ("ana", "ben")}
    assert pairs(honest, given_code(notebook(NOTEBOOKS))) == []


def test_the_given_code_alone_pairs_nobody():
    stub = answer_code(notebook(NOTEBOOKS))  # two students who handed in the untouched notebook
    assert pairs({"gil": stub, "hal": stub}, given_code(notebook(NOTEBOOKS))) == []


STUB = "# YOUR CODE HERE\nraise NotImplementedError()"


def test_the_short_answers_a_whole_group_writes_alike_pair_nobody():
    # four students who did only the four short exercises, each the way everybody does
    short_only = handed_in([STUB, *SHORT[:2], STUB, *SHORT[2:]])
    group = {name: short_only for name in ("fay", "gus", "hana", "ivo")}
    assert pairs(group, given_code(notebook(NOTEBOOKS))) == []


def test_two_one_liners_written_alike_are_a_coincidence():
    encode_only = handed_in([STUB, SHORT[0], STUB, STUB, STUB, SHORT[3]])
    assert pairs({"jo": encode_only, "kai": encode_only}, given_code(notebook(NOTEBOOKS))) == []


def with_a_ring_of_three() -> dict[str, str]:
    """The class, fay, whose long answers are ana's disguised and whose last two are her own short ones, and 24
    students who handed in the untouched notebook: 30, so that a passage of three is not the class's common code."""
    ana, untouched = solution_bodies(), answer_code(notebook(NOTEBOOKS))
    return {**the_class(), "fay": handed_in([disguised(body) for body in ana[:-2]] + SHORT[2:]),
            **{f"stub{n:02d}": untouched for n in range(24)}}


def test_a_ring_of_three_is_found_and_reported_as_one_group(tmp_path):
    found = pairs(with_a_ring_of_three(), given_code(notebook(NOTEBOOKS)))
    assert [pair.students for pair in found] == [("ana", "ben"), ("ana", "fay"), ("ben", "fay")]
    for student, code in with_a_ring_of_three().items():
        folder = tmp_path / "intake" / student / CHAPTER
        folder.mkdir(parents=True)
        nb = notebook(SOLUTIONS)
        nb.cells = [nbformat.v4.new_code_cell(code, metadata={"nbgrader": {"solution": True}})]
        nbformat.write(nb, folder / f"{CHAPTER}.ipynb")
    notes = class_report([tmp_path / "intake"], CHAPTER, notebook(NOTEBOOKS), tmp_path / "out")
    group = "answers nearly the same as those of a group of 3: ana, ben, fay (similar-pairs.csv, similar-pairs.html)"
    assert notes == {student: [group + "; not penalised"] for student in ("ana", "ben", "fay")}
    with (tmp_path / "out" / REPORT).open() as handle:
        assert {row["cluster"] for row in csv.DictReader(handle)} == {"ana ben fay"}
    page = (tmp_path / "out" / PAGE).read_text()
    assert "<h2 id='ana--fay'>ana and fay</h2>" in page and page.count("<mark>") >= 6
    assert "how_often" in page  # ben's own code, his renamed names as he wrote them


SHARES = """
import json
from tests.autograder.instructor.intake.test_similar_pairs import NOTEBOOKS, given_code, notebook, with_a_ring_of_three
from grading.instructor.intake.similarity import pairs
found = pairs(with_a_ring_of_three(), given_code(notebook(NOTEBOOKS)))
print(json.dumps([(pair.students, pair.shares, pair.matched) for pair in found]))
"""


def test_the_shares_are_the_same_in_every_process_whatever_pythons_hash_seed():
    runs = {subprocess.run([sys.executable, "-c", SHARES], cwd=REPO, env={**os.environ, "PYTHONHASHSEED": seed},
                           capture_output=True, text=True, check=True).stdout for seed in ("1", "2", "3", "4")}
    assert len(runs) == 1, runs
