"""Grading tools of the course, in two parts that trust different things.

``grading.student`` runs inside a student's kernel (and, loaded by path, in the answer worker):
the test cells' helpers and the syllabus's rules. ``grading.instructor`` runs only on the
instructor's machine: the nbgrader harness, the trusted checker, the sandboxed answer worker's
launcher, intake, screens and release.
"""
