"""nbgrader's tools for students only, in this environment's JupyterLab:

    python -m grading.student.jupyter_tools            (the student release's README and binder/postBuild run it)

nbgrader installs its instructor's tools with the student's: Formgrader, Create Assignment (which can
change a locked cell's type), the course list and the assignment list, which without nbgrader's
exchange only says "Error fetching courses!". This switches them off, in JupyterLab's interface and
in the server, and keeps Validate (a button of the notebook's toolbar). It also switches off nbgrader's
*Nbgrader* menu, which holds nothing but those tools' commands and stays, empty, without them. Where a
course's JupyterHub configures the exchange, its administrator switches the assignment list and the menu
back on (``jupyter labextension enable @jupyter/nbgrader:assignment-list @jupyter/nbgrader:menu``, and
``nbgrader.server_extensions.assignment_list`` on in ``jupyter_server_config.d/student-tools.json``).
"""
import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

LAB_PLUGINS = ("@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
               "@jupyter/nbgrader:course-list", "@jupyter/nbgrader:assignment-list", "@jupyter/nbgrader:menu")
SERVER_EXTENSIONS = ("nbgrader.server_extensions.formgrader", "nbgrader.server_extensions.course_list",
                     "nbgrader.server_extensions.assignment_list")
# nbgrader's extensions are declared by the package as a whole, so `jupyter server extension disable` cannot
# name one of them: a file of the configuration folder's .d directory does, read after nbgrader.json (sorted)
SERVER_CONFIG = Path("jupyter_server_config.d") / "student-tools.json"


def switch_off(user: bool = False) -> Path:
    """Switch the instructor's tools off for this environment (``user``: for the user, in JUPYTER_CONFIG_DIR)."""
    jupyter = Path(sys.executable).parent / "jupyter"
    level = "user" if user else "sys_prefix"
    subprocess.run([str(jupyter), "labextension", "disable", f"--level={level}", *LAB_PLUGINS], check=True,
                   capture_output=True)
    folder = Path(os.environ.get("JUPYTER_CONFIG_DIR", Path.home() / ".jupyter")) if user else (
        Path(sys.prefix) / "etc" / "jupyter")
    (folder / SERVER_CONFIG).parent.mkdir(parents=True, exist_ok=True)
    config = {"ServerApp": {"jpserver_extensions": {name: False for name in SERVER_EXTENSIONS}}}
    (folder / SERVER_CONFIG).write_text(json.dumps(config, indent=2) + "\n")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Switch nbgrader's instructor's tools off in JupyterLab.")
    parser.add_argument("--user", action="store_true", help="for this user only (default: this environment)")
    folder = switch_off(parser.parse_args(argv).user)
    print(f"nbgrader's instructor's tools are off in {folder}; Validate stays.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
