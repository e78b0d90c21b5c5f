"""What the GPU machine has (bench/gpu_machine.toml): fetch the wheels it lacks, and check imports against it.

    .venv/bin/python bench/gpu_machine.py wheels [--dest .whl]   # make gpu-wheels: download the wheels to carry
    .venv/bin/python bench/gpu_machine.py audit                   # what the session's code names, checked

The GPU machine has Python 3.12 with torch, Triton, pytest, tqdm, matplotlib and sacrebleu, and no package
index: whatever else the GPU session imports must travel as a wheel in .whl/. ``allowed`` says whether a
top-level module may be imported there (standard library, this repository, or a listed distribution);
``named_imports`` lists every module that the notebooks, seqmodels, the student checks and the session's
scripts import anywhere in their code (so also on paths that a CPU rehearsal does not take).
"""
import argparse
import ast
import importlib.metadata
import importlib.util
import json
import re
import subprocess
import sys
import sysconfig
import tomllib
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LISTS = Path(__file__).with_name("gpu_machine.toml")
PINNED_IN = ["requirements.txt", "requirements-data.txt", "bench/requirements.txt"]
# this repository's own top-level modules: its packages, the bench scripts (run with bench/ on the path), the tests
LOCAL = {"seqmodels", "grading", "tests", "conftest", *(p.stem for p in (REPO / "bench").glob("*.py"))}
# the code that the GPU session runs, imports or collects, besides what it imports from these
SOURCES = ["bench/gpu_session.py", "bench/gpu_check.py", "bench/gpu_machine.py", "bench/tasks.py", "bench/training.py",
           "bench/structured.py", "bench/report.py", "reference/seqmodels", "autograder/grading/student",
           "solutions"]
PLATFORMS = ["manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_24_x86_64", "manylinux_2_17_x86_64",
             "manylinux2014_x86_64", "manylinux1_x86_64"]


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def lists() -> dict[str, list[str]]:
    """{"image": distributions installed there, "wheels": distributions carried in .whl/}."""
    return tomllib.loads(LISTS.read_text())


def pinned_versions() -> dict[str, str]:
    """NAME -> version of every ``NAME==VERSION`` line in the course's requirements files."""
    pins = {}
    for name in PINNED_IN:
        for line in (REPO / name).read_text().splitlines():
            match = re.match(r"\s*([A-Za-z0-9_.\-]+)==([^\s;#]+)", line)
            if match:
                pins[normalized(match[1])] = match[2]
    return pins


def wheel_pins() -> list[str]:
    """``NAME==VERSION`` of each listed wheel: pinned in a requirements file, else as installed here."""
    pins = pinned_versions()
    found = []
    for name in lists()["wheels"]:
        version = pins.get(normalized(name))
        if version is None:
            try:
                version = importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                raise SystemExit(f"gpu_machine: {name} is neither pinned in {', '.join(PINNED_IN)} nor installed here; "
                                 f"`make env` installs the course's packages") from None
        found.append(f"{name}=={version}")
    return found


def download(dest: Path) -> int:
    """pip download of every listed wheel for the GPU machine (CPython 3.12, manylinux x86-64) into ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
               "--python-version", "3.12", "--implementation", "cp", *(f"--platform={p}" for p in PLATFORMS),
               "-d", str(dest), *wheel_pins()]
    done = subprocess.run(command)
    wheels = sorted(dest.glob("*.whl"))
    size = sum(p.stat().st_size for p in wheels) / 2**20
    print(f"{len(wheels)} wheels in {dest}, {size:.1f} MiB (the device call carries at most 64 MiB with the tree)")
    return done.returncode


@cache
def distributions_of() -> dict[str, list[str]]:
    """Top-level module -> the distributions installed here that provide it."""
    return {module: [normalized(d) for d in dists] for module, dists in importlib.metadata.packages_distributions().items()}


def allowed(module: str) -> bool:
    """Whether top-level ``module`` can be imported on the GPU machine, given what travels with the tree."""
    if module in sys.stdlib_module_names or module in sys.builtin_module_names or module in LOCAL:
        return True
    if module in lists()["optional"] or not installed_from_a_package(module):
        return True
    there = {normalized(name) for name in lists()["image"] + lists()["wheels"]}
    providers = distributions_of().get(module) or [normalized(lists()["provided_by"].get(module, module))]
    return any(provider in there for provider in providers)


def installed_from_a_package(module: str) -> bool:
    """False for a module no package can supply: made at run time (Cython's ``_cython_3_2_4``, torch's generated
    ones) or a file of Python's own library (``_sysconfigdata_...``). Modules that only the GPU machine has (torchcrf)
    are named in the lists' ``provided_by``."""
    if module in distributions_of() or module in lists()["provided_by"]:
        return True
    try:
        spec = importlib.util.find_spec(module)
    except ValueError:  # imported here too, without a spec: made at run time
        return False
    except ImportError:
        return True
    if spec is None:  # imported in a process, yet nowhere to be found: made at run time
        return False
    origin = Path(spec.origin).resolve() if spec.origin and spec.origin not in ("built-in", "frozen") else None
    return origin is None or not origin.is_relative_to(Path(sysconfig.get_paths()["stdlib"]).resolve())


def code_of(path: Path) -> list[str]:
    """The Python source of a .py file, or the code cells of a notebook (IPython's magics and shell lines dropped)."""
    if path.suffix == ".py":
        return [path.read_text()]
    cells = json.loads(path.read_text())["cells"]
    return ["\n".join(line for line in "".join(c["source"]).splitlines() if not line.lstrip().startswith(("%", "!")))
            for c in cells if c["cell_type"] == "code"]


def imported_modules(source: str) -> set[str]:
    """Top-level modules that ``import`` statements name anywhere in ``source`` (inside functions too)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def named_imports(sources: list[str] = SOURCES) -> dict[str, set[str]]:
    """Top-level module -> the files (relative to the repository) whose code imports it."""
    found: dict[str, set[str]] = {}
    for entry in sources:
        root = REPO / entry
        files = [root] if root.is_file() else sorted([*root.rglob("*.py"), *root.glob("*/*.ipynb")])
        for path in files:
            if ".ipynb_checkpoints" in path.parts:
                continue
            for source in code_of(path):
                for module in imported_modules(source):
                    found.setdefault(module, set()).add(str(path.relative_to(REPO)))
    return found


def not_there(modules) -> list[str]:
    return sorted(module for module in modules if not allowed(module))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    wheels = commands.add_parser("wheels", help="download the wheels the GPU machine lacks")
    wheels.add_argument("--dest", type=Path, default=REPO / ".whl")
    commands.add_parser("audit", help="check the modules the session's code imports")
    args = parser.parse_args()
    if args.command == "wheels":
        return download(args.dest)
    found = named_imports()
    missing = not_there(found)
    for module in missing:
        print(f"{module}: not on the GPU machine nor in {LISTS.name}; imported by {', '.join(sorted(found[module]))}")
    print(f"{len(found)} top-level modules named, {len(missing)} not on the GPU machine")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
