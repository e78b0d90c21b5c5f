"""Your answers, run by the course's package: the student release's stand-in for the graded functions.

In the student release of ``seqmodels`` a graded function of a chapter whose answers your instructor
has not released keeps its signature and docstring, and its body calls the function of the same name
that you defined in the running notebook (its namespace is ``sys.modules["__main__"]``): the
chapter's demo trains with your own implementation. Where the notebook defines no such function (an
earlier chapter's function in a later chapter's notebook, say) it raises NotImplementedError and
names the chapter. Code of the package that computes what a graded function computes by another
route (a fused or batched version) is withheld in the same way, or runs the graded function instead.
"""
import sys
import threading
from collections.abc import Callable
from typing import Any

# The chapters whose answers this release does not hold: the release writes them here (student.py).
WITHHELD: frozenset[str] = frozenset()
_running = threading.local()  # names of the graded functions whose student version is running now


def _chapter(chapter: str) -> str:
    return f"chapter {chapter.partition('_')[0]}"


def _notebooks(name: str) -> Callable | None:
    """The function ``name`` that the running notebook defines, if it does."""
    yours = getattr(sys.modules.get("__main__"), name, None)
    if not callable(yours) or getattr(yours, "__module__", "").partition(".")[0] == __package__:  # not this stub
        return None
    return yours


def your_function(name: str, chapter: str, extensions: dict[str, tuple[Any, Any]] | None = None) -> Callable:
    """The notebook's ``name``, to be called with the syllabus's arguments.

    ``extensions`` maps each argument that the course's version takes beyond the syllabus's to the
    value it was given and its default: a value other than the default needs the released answers.
    """
    given = [key for key, (value, default) in (extensions or {}).items() if value is not default and value != default]
    if given:
        raise NotImplementedError(
            f"`{name}` with {', '.join(given)} is the course's extension of the graded function of "
            f"{_chapter(chapter)}, which yours does not take; it works once your instructor releases "
            f"{_chapter(chapter)}'s answers")
    yours = _notebooks(name)
    if yours is None:
        raise NotImplementedError(
            f"`{name}` is a graded function of {_chapter(chapter)}; define it in your notebook, or ask your "
            f"instructor to release {_chapter(chapter)}'s answers")

    def run(*args: Any, **kwargs: Any) -> Any:
        running = _running.__dict__.setdefault("names", set())
        if name in running:
            raise RecursionError(f"your `{name}` calls the course's `{name}`, which runs yours: write it without "
                                 "seqmodels")
        running.add(name)
        try:
            return yours(*args, **kwargs)
        except NotImplementedError as error:
            if str(error):  # a message of this module, from a function yours calls
                raise
            raise NotImplementedError(f"your `{name}` ({_chapter(chapter)}) is not written yet: this cell runs "
                                      "it") from error
        finally:
            running.discard(name)
    return run


def withheld(name: str, graded: str, chapter: str) -> None:
    """Stands in for ``name``, which computes what the graded ``graded`` computes, while its answers are not out."""
    raise NotImplementedError(
        f"`{name}` computes what `{graded}` of {_chapter(chapter)} does, so it comes with {_chapter(chapter)}'s "
        f"answers: ask your instructor to release them")


def missing_earlier_answers(uses: dict[str, list[str]]) -> str:
    """One message naming every function of ``uses`` (chapter -> graded functions that the notebook's demos
    use) that is still missing: neither defined in the running notebook nor released; "" when none is."""
    missing = {chapter: [name for name in names if chapter in WITHHELD and _notebooks(name) is None]
               for chapter, names in uses.items()}
    missing = {chapter: names for chapter, names in missing.items() if names}
    if not missing:
        return ""
    listed = "; ".join(f"{_chapter(chapter)}'s {', '.join(names)}" for chapter, names in missing.items())
    return (f"Still missing for this notebook's demos: {listed}. Paste your functions from those chapters' "
            "notebooks into a cell below this one and run it, or ask your instructor to release those "
            "chapters' answers. The exercises do not need them; until then the demos that use them stop "
            "with an error that names the function.")
