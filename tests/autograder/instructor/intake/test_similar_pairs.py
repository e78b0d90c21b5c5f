"""Near-copies between students (grading.instructor.intake.similarity.pairs, by copydetect's winnowing).

A class of chapter 01 in which ben copied ana's answers, renaming every variable and adding
comments, and cleo, dev, eli, gus and hana each wrote their own: their long functions differ, their short
ones (``return E[ids]`` and the like) are the same as everybody's. Only ana and ben are paired.
Then fay copies ana's answers too, with names of her own and her cells in the opposite order, in a class of 10
(three more write the instructor's solution, two hand in the untouched notebook): the three are a ring, found and
reported as one group, with the same shares in every process; so they are in a generated class of 100. Without
the ring neither class pairs anybody (the threshold of instructors' page, *Similar answers*).
"""
import csv
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
from grading.instructor.course import NOTEBOOKS, REPO, SOLUTIONS
from grading.instructor.intake.similarity import (
    PAGE,
    REPORT,
    answer_cells,
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
HONEST |= {
    "gus": ('''
seen = Counter()
for sent in corpus:
    seen.update(sent)
for s in specials:
    del seen[s]
order = sorted(seen.items(), key=lambda kv: (-kv[1], kv[0]))
words = [w for w, c in order if c >= min_freq]
if max_size is not None:
    words = words[:max_size]
table = {}
for w in [*specials, *words]:
    table.setdefault(w, len(table))
return table''', '''
size = max([len(x) for x in seqs])
data = torch.full((len(seqs), size), pad_id)
for r, x in enumerate(seqs):
    data[r][: len(x)] = torch.LongTensor(x)
flags = torch.tensor([[j < len(x) for j in range(size)] for x in seqs])
return data.long(), flags'''),
    "hana": ('''
words = sorted(set(w for line in corpus for w in line) - set(specials))
freq = {w: sum(line.count(w) for line in corpus) for w in words}
good = sorted([w for w in words if freq[w] >= min_freq], key=lambda w: (-freq[w], w))
good = good if max_size is None else good[:max_size]
out = {s: n for n, s in enumerate(specials)}
out.update({w: len(specials) + n for n, w in enumerate(good)})
return out''', '''
import torch.nn.functional as F
widest = max(map(len, seqs))
tensors = [F.pad(torch.tensor(x, dtype=torch.long), (0, widest - len(x)), value=pad_id) for x in seqs]
lengths = torch.tensor(list(map(len, seqs)))
return torch.stack(tensors), torch.arange(widest).expand(len(seqs), widest) < lengths.unsqueeze(1)'''),
}
ANA = ['''
from collections import defaultdict
reserved = frozenset(specials)
counts = defaultdict(int)
for document in corpus:
    for token in filter(lambda t: t not in reserved, document):
        counts[token] += 1
kept = sorted(counts, key=lambda token: (-counts[token], token))
kept = [token for token in kept if counts[token] >= min_freq][:max_size]
return {token: index for index, token in enumerate(list(specials) + kept)}''', '''
unk_id = vocab[unk]
return [vocab[token] if token in vocab else unk_id for token in tokens]''', '''
token_of = dict(map(reversed, vocab.items()))
return list(map(token_of.__getitem__, ids))''', '''
longest = 0
for seq in seqs:
    longest = max(longest, len(seq))
rows = [list(seq) + [pad_id] * (longest - len(seq)) for seq in seqs]
mask = [[index < len(seq) for index in range(longest)] for seq in seqs]
return torch.LongTensor(rows), torch.BoolTensor(mask)''', '''
return torch.eye(V)[ids.reshape(-1)].reshape(*ids.shape, V)''', '''
return torch.index_select(E, 0, ids.reshape(-1)).reshape(*ids.shape, E.shape[1])''']
RENAMES = {"reserved": "skip_these", "counts": "how_often", "kept": "chosen_tokens", "token": "tok",
           "document": "doc", "unk_id": "fallback", "token_of": "lookup", "longest": "width", "mask": "valid",
           "rows": "lines", "seq": "s", "index": "position"}
OTHER_NAMES = {"reserved": "banned", "counts": "freq_of", "kept": "survivors", "token": "w", "document": "sentence",
               "unk_id": "unknown", "token_of": "back", "longest": "n_max", "mask": "is_real", "rows": "out",
               "seq": "x", "index": "k"}
VARIANTS = [  # the short answers, each in three ways many students write
    [SHORT[0], "return [vocab[t] if t in vocab else vocab[unk] for t in tokens]",
     "out = []\nfor t in tokens:\n    out.append(vocab.get(t, vocab[unk]))\nreturn out"],
    [SHORT[1], "inverse = dict((i, t) for t, i in vocab.items())\nreturn [inverse[i] for i in ids]",
     "lookup = {v: k for k, v in vocab.items()}\nreturn list(map(lookup.get, ids))"],
    [SHORT[2], "return torch.eye(V)[ids]",
     "out = torch.zeros(*ids.shape, V)\nout.scatter_(-1, ids.unsqueeze(-1), 1.0)\nreturn out"],
    [SHORT[3], "return torch.nn.functional.embedding(ids, E)",
     "return E.index_select(0, ids.flatten()).view(*ids.shape, -1)"],
]


def notebook(folder, chapter=CHAPTER) -> nbformat.NotebookNode:
    return nbformat.read(folder / chapter / f"{chapter}.ipynb", as_version=4)


def solution_cells(bodies: list[str]) -> list[str]:
    """The answer cells of the solution with each solution region replaced by the body given, in order."""
    regions = iter(bodies)
    return [re.sub(r"( *)### BEGIN SOLUTION\n.*?### END SOLUTION",
                   lambda m: textwrap.indent(textwrap.dedent(next(regions)).strip(), m[1]), cell.source,
                   flags=re.DOTALL)
            for cell in notebook(SOLUTIONS).cells
            if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution")]


def handed_in(bodies: list[str]) -> list[str]:
    return solution_cells(bodies)


def solution_bodies() -> list[str]:
    code = "\n\n".join(answer_cells(notebook(SOLUTIONS)))
    return [textwrap.dedent(body) for body in re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", code, re.DOTALL)]


def renamed(body: str, names: dict[str, str]) -> str:
    for old, new in names.items():
        body = re.sub(rf"\b{old}\b", new, body)
    return body


def disguised(body: str) -> str:
    """ana's body with every name changed and a comment before each line, as a copier hides a copy."""
    return "\n".join(f"# step {n}\n{line}" for n, line in enumerate(renamed(body, RENAMES).strip().splitlines()))


def own(vocab: str, pad: str, short: tuple[int, int, int, int] = (0, 0, 0, 0)) -> list[str]:
    """A hand-in with its own build_vocab and pad_batch and the short answers' variants ``short``."""
    encode, decode, onehot, embed = (VARIANTS[n][way] for n, way in enumerate(short))
    return handed_in([vocab, encode, decode, pad, onehot, embed])


def the_class() -> dict[str, list[str]]:
    honest = {name: own(vocab, pad) for name, (vocab, pad) in HONEST.items()}
    return {"ana": handed_in(ANA), "ben": handed_in([disguised(body) for body in ANA]), **honest}


def pairs_in(answers: dict[str, list[str]]) -> list:
    return pairs(answers, given_code(notebook(NOTEBOOKS)), answer_cells(notebook(SOLUTIONS)))


def test_a_disguised_copy_is_paired_and_nobody_else():
    found = pairs_in(the_class())
    assert [pair.students for pair in found] == [("ana", "ben")]
    assert min(found[0].shares) >= 0.8


def test_honest_answers_that_share_the_short_functions_are_not_paired():
    honest = {name: code for name, code in the_class().items() if name not in ("ana", "ben")}
    assert pairs_in(honest) == []


def test_the_given_code_alone_pairs_nobody():
    stub = answer_cells(notebook(NOTEBOOKS))  # two students who handed in the untouched notebook
    assert pairs_in({"gil": stub, "hal": stub}) == []


STUB = "# YOUR CODE HERE\nraise NotImplementedError()"


def test_the_short_answers_a_whole_group_writes_alike_pair_nobody():
    # four students who did only the four short exercises, each the way everybody does
    short_only = handed_in([STUB, *SHORT[:2], STUB, *SHORT[2:]])
    group = {name: short_only for name in ("fay", "gus", "hana", "ivo")}
    assert pairs_in(group) == []


def test_two_one_liners_written_alike_are_a_coincidence():
    encode_only = handed_in([STUB, SHORT[0], STUB, STUB, STUB, SHORT[3]])
    assert pairs_in({"jo": encode_only, "kai": encode_only}) == []


def test_students_who_write_the_instructors_solution_are_not_paired():
    # the way the solution writes it is the way many write it; a copy of it is the reference check's to note
    assert pairs_in({"lou": handed_in(solution_bodies()), "mia": handed_in(map(disguised, solution_bodies()))}) == []


def honest_ten() -> dict[str, list[str]]:
    """Five students with answers of their own, three who write the instructor's solution, two untouched."""
    solution, untouched = solution_bodies(), answer_cells(notebook(NOTEBOOKS))
    return {**{name: code for name, code in the_class().items() if name not in ("ana", "ben")},
            "ivo": handed_in(solution), "jo": handed_in(solution), "kai": handed_in(map(disguised, solution)),
            "lea": untouched, "max": untouched}


def fay() -> list[str]:
    """ana's answers with names of fay's own and the cells in the opposite order."""
    return handed_in([renamed(body, OTHER_NAMES) for body in ANA])[::-1]


def with_a_ring_of_three() -> dict[str, list[str]]:
    """A class of 10: ana, ben (ana's, disguised), fay (ana's, renamed and reordered) and seven honest students."""
    honest = honest_ten()
    return {"ana": handed_in(ANA), "ben": handed_in([disguised(body) for body in ANA]), "fay": fay(),
            **{name: honest[name] for name in sorted(honest)[:7]}}


def generated(size: int) -> dict[str, list[str]]:
    """``size`` honest students, each with one of five build_vocab and five pad_batch answers and one of three ways
    of writing each short answer, every combination in turn."""
    styles = list(HONEST.values())
    return {f"s{n:03d}": own(styles[n % 5][0], styles[n // 5 % 5][1], (n % 3, n // 3 % 3, n // 9 % 3, n // 27 % 3))
            for n in range(size)}


RING = [("ana", "ben"), ("ana", "fay"), ("ben", "fay")]


def test_a_ring_of_three_in_a_class_of_ten_is_found():
    assert len(with_a_ring_of_three()) == 10
    assert [pair.students for pair in pairs_in(with_a_ring_of_three())] == RING


def test_a_class_of_ten_honest_students_pairs_nobody():
    assert len(honest_ten()) == 10 and pairs_in(honest_ten()) == []


def test_a_ring_of_three_in_a_class_of_a_hundred_is_found_and_the_honest_hundred_pair_nobody():
    honest = generated(100)
    assert pairs_in(honest) == []
    ring = {**generated(97), "ana": handed_in(ANA), "ben": handed_in([disguised(body) for body in ANA]), "fay": fay()}
    assert [pair.students for pair in pairs_in(ring)] == RING


def write_intake(answers: dict[str, list[str]], intake: Path) -> None:
    """Each student's answer cells as ``intake/<student>/<chapter>/<chapter>.ipynb``."""
    for student, cells in answers.items():
        folder = intake / student / CHAPTER
        folder.mkdir(parents=True)
        nb = notebook(SOLUTIONS)
        nb.cells = [nbformat.v4.new_code_cell(code, metadata={"nbgrader": {"solution": True}}) for code in cells]
        nbformat.write(nb, folder / f"{CHAPTER}.ipynb")


def report(intake: Path, out: Path) -> dict[str, list[str]]:
    return class_report([intake], CHAPTER, notebook(NOTEBOOKS), notebook(SOLUTIONS), out)


def test_a_ring_of_three_is_reported_as_one_group(tmp_path):
    write_intake(with_a_ring_of_three(), tmp_path / "intake")
    notes = report(tmp_path / "intake", tmp_path / "out")
    group = "answers nearly the same as those of a group of 3: ana, ben, fay (similar-pairs.csv, similar-pairs.html)"
    assert notes == {student: [group + "; not penalised"] for student in ("ana", "ben", "fay")}
    with (tmp_path / "out" / REPORT).open() as handle:
        assert {row["cluster"] for row in csv.DictReader(handle)} == {"ana ben fay"}
    page = (tmp_path / "out" / PAGE).read_text()
    assert "<h2 id='ana--fay'>ana and fay</h2>" in page and page.count("<mark>") >= 6
    assert "how_often" in page  # ben's own code, his renamed names as he wrote them


SHARES = """
import json
from tests.autograder.instructor.intake.test_similar_pairs import pairs_in, with_a_ring_of_three
found = pairs_in(with_a_ring_of_three())
print(json.dumps([(pair.students, pair.shares, pair.matched) for pair in found]))
"""


def test_the_shares_are_the_same_in_every_process_whatever_pythons_hash_seed():
    runs = {subprocess.run([sys.executable, "-c", SHARES], cwd=REPO, env={**os.environ, "PYTHONHASHSEED": seed},
                           capture_output=True, text=True, check=True).stdout for seed in ("1", "2", "3", "4")}
    assert len(runs) == 1, runs
