"""The syllabus's rules for graded functions, as data.

``FORBIDDEN`` maps each graded function to the library calls that would solve it
for the student. Using one, directly or through any alias, or running code from
the reference package, fails every test of that function.
"""
REFERENCE_PACKAGE = "seqmodels"

FORBIDDEN: dict[str, tuple[str, ...]] = {
    # 01 From tokens to vectors
    "onehot": ("torch.nn.functional.one_hot",),
    "embed": ("torch.nn.functional.embedding", "torch.embedding", "torch.nn.Embedding"),
}
