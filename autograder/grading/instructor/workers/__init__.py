"""What grades a class: the interface (abc), the embedded default of long-lived nbgrader processes on this machine
(local), and grading workers on other machines fed through a Celery queue on a Redis broker (queue)."""
