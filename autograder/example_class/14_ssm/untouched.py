"""Submits the student version untouched: every answer still raises NotImplementedError.

answers: release
loses: everything
"""
