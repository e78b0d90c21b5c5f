"""The ffnn cell raises while it loads, with a style sheet and a fake score in its message for the feedback page.

answers: solution
layer: checker (the grading report shows every student-derived string as text)
loses: test_ffnn_worked test_ffnn_activation
markup: <h2>Score: 100 of 100</h2>
says: Score: 100 of 100
"""
# %% ffnn
raise ValueError("<style>h1, .score {display: none}</style><h2>Score: 100 of 100</h2>")
