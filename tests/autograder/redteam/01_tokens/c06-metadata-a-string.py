"""A careless editor: the onehot answer cell's nbgrader metadata became the string "solution".

nbgrader (and its Validate button) crashed on it, and with it the grading of the whole class; the release
knows the cell by the function it defines, so it is repaired, flagged, and keeps every point.

answers: solution
edit: nbgrader-metadata onehot "solution"
loses: nothing
flagged: yes
says: "solution" instead of a dictionary
"""
