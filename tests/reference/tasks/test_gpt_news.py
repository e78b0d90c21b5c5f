"""Chapter 13's GPT on the news (gpt-news) at the GPU scale: the news is a fixed corpus, so the scale widens and
deepens the GPT and doubles its batches, on the same training windows (``scaled_batch``)."""
import torch

from seqmodels.tasks import TASKS
from seqmodels.tasks.base import SCALES

CPU = torch.device("cpu")


def test_the_gpu_scale_trains_a_wider_deeper_gpt_on_the_same_windows_in_batches_twice_as_large():
    small, large = (TASKS["gpt-news"].build(device=CPU, scale=SCALES[name]) for name in ("cpu", "gpu"))
    assert len(large.train.dataset) == len(small.train.dataset)
    assert (small.train.batch_size, large.train.batch_size) == (16, 32)
    assert (len(small.model.blocks), len(large.model.blocks)) == (2, 6)
    assert (small.model.embedding.embedding_dim, large.model.embedding.embedding_dim) == (64, 256)


def test_the_baseline_and_the_gpt_learn_from_the_same_tenth_of_the_labelled_snippets():
    from seqmodels.data.movie_reviews import film_splits, review_splits, review_words
    from seqmodels.models.gpt import GPT, GPTClassifier
    from seqmodels.tasks.gpt_news import labelled, review_classification
    from seqmodels.text.bpe import BPETokenizer

    # no merges: every character its own token, so that the ids spell the snippet (its first 64 characters)
    tokenizer = BPETokenizer([], {c for snippet in film_splits()[0] for c in snippet.text})
    setup = review_classification(tokenizer, GPTClassifier(GPT(len(tokenizer.vocab)), 2), CPU, fraction=0.1)
    snippets = review_splits()
    tenth = labelled(snippets.train, 0.1)
    assert len(setup.train.dataset) == len(tenth) == round(0.1 * len(snippets.train))
    assert len({tuple(tokens) for tokens, _ in tenth}) > 0.9 * len(tenth)  # a sample, not one snippet repeated
    for (ids, label), (words, their_label) in zip(setup.train.dataset, tenth, strict=True):
        spelled = review_words(tokenizer.decode(ids))[:-1]  # the last word may be cut
        assert label == their_label and words[:len(spelled)] == spelled
