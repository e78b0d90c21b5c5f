"""receptive_field never returns: its tests time out, and every other function is still graded.

answers: solution
layer: checker (each test has a deadline; the checker kills the worker and restarts it for the next tests)
loses: test_receptive_field_fig48 test_receptive_field_stride
says: an endless loop?
"""
# %% receptive_field
def receptive_field(num_layers, r, stride=1):
    while True:
        pass
