"""Which graded functions of a chapter build on which others, read from the solution notebook's answer cells.

The one place that says it: a function whose answer calls another graded function of its chapter
depends on it (chapter 12's encoder_block on attention_heads and position_wise_ffn, chapter 05's
lstm_encode on lstm_step). A test that fails because a function it builds on fails says to fix that one
first, instead of giving hints about a bug that is not there: in the graded feedback (the checker,
grading.instructor.verdicts.checker, reads the graph from the solution notebook) and in the notebook
(grading.student.progress, given the same graph by a cell that the release writes from the solution).
"""
import ast
import re

_CALLED = re.compile(r"\bcall\(\s*(\w+)")  # the test cells call students' functions only through checks.call
_HINT = "\nHint: "  # how grading.student.checks.ExerciseFailure ends its message with a hint
_NOT_WRITTEN = "is not implemented yet"  # checks.call's words for a stub: its own fault, nothing else to blame


def graded_calls(functions: list[ast.FunctionDef]) -> dict[str, set[str]]:
    """Each graded function (the solution's, ``checker.graded_functions``) -> those its answer calls, directly or not."""
    names = {f.name for f in functions}
    direct = {f.name: {n.id for n in ast.walk(f) if isinstance(n, ast.Name) and n.id in names} - {f.name}
              for f in functions}
    closure = {}
    for name in names:
        seen, todo = set(), list(direct[name])
        while todo:
            callee = todo.pop()
            if callee not in seen:
                seen.add(callee)
                todo.extend(direct.get(callee, ()))
        closure[name] = seen - {name}
    return closure


def subjects(test_source: str, calls: dict[str, set[str]]) -> set[str]:
    """The graded functions a test cell tests: those it calls, less those it calls only as another's prerequisite."""
    called = set(_CALLED.findall(test_source)) & set(calls)
    return {f for f in called if not any(f in calls[g] for g in called if g != f)}


def blockers(function: str, calls: dict[str, set[str]], failing: set[str]) -> list[str]:
    """The failing functions that ``function`` builds on and that build on no failing function themselves."""
    failed_below = calls.get(function, set()) & failing
    return sorted(f for f in failed_below if not calls.get(f, set()) & failing)


def fix_first(function: str, roots: list[str], calls: dict[str, set[str]]) -> str:
    """The hint for a test of ``function`` that fails where ``roots``, which it builds on, fail their own tests."""
    named = " and ".join(roots)
    through = sorted(f for f in calls.get(function, set()) if any(r in calls.get(f, set()) for r in roots))
    route = f" (through your {', '.join(through)})" if through else ""
    return (f"{function} builds on your {named}{route}, which fail{'s' if len(roots) == 1 else ''} "
            f"{'its' if len(roots) == 1 else 'their'} own tests above: fix {named} first, then run this test again")


def blamed(message: str, tested: set[str], calls: dict[str, set[str]], failing: set[str]) -> str:
    """A failed test's ``message`` with its hint replaced by "fix X first" where a function it tests builds on
    ``failing`` ones; unchanged where none does, or where the function tested is not written yet."""
    if _NOT_WRITTEN in message:
        return message
    for function in sorted(tested):
        roots = blockers(function, calls, failing)
        if roots:
            return f"{message.split(_HINT)[0]}{_HINT}{fix_first(function, roots, calls)}"
    return message
