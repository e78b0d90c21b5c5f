"""bpe_train reads the instructor's notebook from the course folder and keeps nothing but a guess.

answers: solution
layer: screen (pathlib is no answer's import; without the screen the sandbox shows no course folder to read)
loses: test_bpe_train_example test_bpe_train_random
"""
# %% bpe_train
from pathlib import Path as Path_


def bpe_train(word_counts, num_merges):
    for base in (Path_.cwd(), *Path_.cwd().parents, Path_("/work/main")):  # the grading folder, then up
        notebook = base / "solutions" / "13_gpt" / "13_gpt.ipynb"
        if notebook.is_file():
            return notebook.read_text()  # the solutions, if the answers could see them
    return []
