"""An honest mistake whose message has angle brackets and stars: it shows on the page as written.

answers: solution
loses: test_ffnn_worked test_ffnn_activation
says: need 0 < width * 2
"""
# %% ffnn
raise ValueError("need 0 < width * 2")
