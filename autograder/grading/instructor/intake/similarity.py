"""Near-copies of the reference implementation, flagged for the instructor (never penalised).

Each function an answer defines is compared with the reference package's function of the
same name, as token streams with names, strings and comments normalised away, so renaming
variables or rewording comments does not hide a copy.
"""
import ast
import difflib
import importlib
import inspect
import io
import keyword
import textwrap
import tokenize

from grading.student.rules import REFERENCE_PACKAGE

THRESHOLD = 0.9  # similarity from which an answer is flagged
MIN_TOKENS = 25  # shorter functions look alike whoever writes them


def shape(source: str) -> list[str]:
    """The function's tokens with identifiers, strings and comments replaced by placeholders."""
    tree = ast.parse(textwrap.dedent(source))
    for node in ast.walk(tree):  # docstrings say nothing about who wrote the code
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and ast.get_docstring(node):
            node.body = node.body[1:] or [ast.Pass()]
    tokens = []
    for token in tokenize.generate_tokens(io.StringIO(ast.unparse(tree)).readline):
        if token.type == tokenize.NAME:
            tokens.append(token.string if keyword.iskeyword(token.string) else "NAME")
        elif token.type == tokenize.STRING:
            tokens.append("STRING")
        elif token.type in (tokenize.OP, tokenize.NUMBER):
            tokens.append(token.string)
    return tokens


def similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, shape(a), shape(b), autojunk=False).ratio()


def near_copies(source: str) -> list[tuple[str, float]]:
    """(function name, similarity) for each function in ``source`` that nearly copies the reference's."""
    try:
        tree = ast.parse(source)
        reference = importlib.import_module(REFERENCE_PACKAGE)
    except (SyntaxError, ImportError):
        return []
    found = []
    for node in tree.body:
        original = getattr(reference, getattr(node, "name", ""), None)
        if not isinstance(node, ast.FunctionDef) or not inspect.isfunction(original):
            continue
        answer, model = ast.get_source_segment(source, node), inspect.getsource(original)
        if len(shape(answer)) >= MIN_TOKENS and (score := similarity(answer, model)) >= THRESHOLD:
            found.append((node.name, round(score, 2)))
    return found
