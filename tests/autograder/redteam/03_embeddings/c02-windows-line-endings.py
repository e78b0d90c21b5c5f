"""An honest notebook saved with Windows line endings (CRLF), in the file and in every cell: nothing to report.

answers: solution
edit: crlf
loses: nothing
"""
