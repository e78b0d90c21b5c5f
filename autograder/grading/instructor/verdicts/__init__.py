"""Verdicts: the trusted checker runs the instructor's tests; students' answers run only in a sandboxed worker."""
