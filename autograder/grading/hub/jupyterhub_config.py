"""JupyterHub's configuration for the course server, made from the course's configuration file.

Started by grading.hub.services (``make hub``), which names the file in GRADING_HUB_COURSE. Everybody the file
names logs in with their Unix password (PAM) and gets a JupyterLab server of their own, run as their own account;
formgrader is a hub service run as the grader account on the class's work folder, which only the formgrade group
(instructors and assistants) may open: nbgrader's "one class, several graders" demo
(https://nbgrader.readthedocs.io/en/stable/configuration/jupyterhub_config.html).
"""
import os
from pathlib import Path

from grading.hub import course as course_file
from grading.hub.services import BIN, PROXY, grader
from grading.instructor.course import REPO

course = course_file.load(Path(os.environ["GRADING_HUB_COURSE"]))
state = course.server.state / "jupyterhub"
path = os.pathsep.join([str(BIN), "/usr/local/bin", "/usr/bin", "/bin"])

c = get_config()  # noqa: F821 (injected by traitlets)
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = course.server.hub_port
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = course.server.hub_api_port
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{course.server.proxy_api_port}"
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")
c.ConfigurableHTTPProxy.command = [str(PROXY)]
c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")

c.JupyterHub.authenticator_class = "pam"
c.PAMAuthenticator.open_sessions = False  # no login session (utmp, systemd) per server: a browser is no terminal
c.Authenticator.allowed_users = set(course.people)
c.Authenticator.admin_users = set(course.instructors)

c.JupyterHub.spawner_class = "localprocess"  # as the user's own account: the hub runs as root
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.environment = {"PATH": path}
c.Spawner.start_timeout = 120  # a busy two-core machine starts a JupyterLab in tens of seconds
c.Spawner.http_timeout = 120

c.JupyterHub.load_groups = {
    course.formgrade_group: {"users": course.graders},
    course.course_group: {"users": course.people},
}
c.JupyterHub.load_roles = [
    {"name": course.formgrade_group, "groups": [course.formgrade_group],
     "scopes": [f"access:services!service={course.course_id}"]},
]
account = grader(course)
c.JupyterHub.services = [{
    "name": course.course_id,
    "url": f"http://127.0.0.1:{course.server.formgrader_port}",
    "command": [str(BIN / "jupyterhub-singleuser")],
    "user": course.grader_account,
    "cwd": str(REPO),  # nbgrader reads the course's nbgrader_config.py from here
    "environment": {"JUPYTERHUB_DEFAULT_URL": "/lab", "GRADING_WORKDIR": str(course.workdir),
                    "GRADING_COURSE_ID": course.course_id, "HOME": account.pw_dir, "PATH": path},
    "oauth_no_confirm": True,
}]
