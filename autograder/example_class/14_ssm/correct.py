"""Correct answers everywhere (the instructor's solution, written answers included).

answers: solution
loses: nothing
"""
