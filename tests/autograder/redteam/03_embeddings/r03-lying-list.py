"""most_similar returns a list subclass whose == always answers True.

answers: solution
layer: checker (a list subclass crosses the wire as an Opaque)
loses: test_analogy_excludes_inputs test_analogy_toy test_most_similar_edges test_most_similar_toy
"""
# %% most_similar
Liar = type("Liar", (list,), {"_" + "_eq__": lambda self, other: True, "_" + "_ne__": lambda self, other: False})


def most_similar(q, E, k, exclude=()):
    return Liar()
