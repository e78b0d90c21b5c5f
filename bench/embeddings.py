"""Benchmark: the course's skip-gram against gensim's Word2Vec on the same real text, quality and seconds.

    .venv/bin/python bench/embeddings.py [--device cuda|cpu] [--epochs N] [--hand-written] [--rounds 2] [--json PATH]

Both train on the Lee background corpus (60k words of news, ``seqmodels.data.news_text``) with the
settings of ``python -m seqmodels.train skipgram-news`` (``seqmodels.tasks.skipgram.NEWS``): skip-gram,
5 negatives drawn from the unigram distribution to the power 3/4, a fixed window of 5 words on each
side, 32 dimensions, words seen fewer than 3 times dropped, 5 epochs, no subsampling of frequent words.
The anchor is gensim's ``Word2Vec(sg=1, hs=0, negative=5, sample=0, shrink_windows=False, workers=1,
seed=0)``: plain SGD one pair at a time in compiled code, on one thread. The course's ``SkipGram``
trains with Adam on batches of 1,024 pairs through ``seqmodels.training.Trainer`` (PyTorch's fast path;
``--hand-written``: also the chapter's ``negative_sampling_loss``). On a CPU both use one thread, unlike the
other scripts' two: gensim's ``workers=1`` is the comparison asked for, and the skip-gram's small matrices
gain nothing from a second thread (on this shared 2-core VM, 2 torch threads took 8x longer than one). Seconds
run from the corpus file to trained vectors (tokenising, vocabulary, pairs and training; no evaluation);
each row is timed ``--rounds`` times, interleaved with the others, and its best round kept (this VM's
timings vary by ±20%). Quality columns: accuracy on the questions-words analogies whose four words are
in the vocabulary, Spearman's correlation with WordSim-353 and SimLex-999 over the pairs in the
vocabulary (``seqmodels.embeddings.evaluation``), and how many questions and pairs that was.
"""
import argparse
import sys
import time
from pathlib import Path

import torch

from report import bench_device, run_facts, synchronize, write_json
from seqmodels.data.news_text import news_words
from seqmodels.tasks.skipgram import NEWS, SKIPGRAM_NEWS, benchmark_scores, news_vocabulary
from seqmodels.training import Trainer, seed_everything

def train_gensim(epochs: int, seed: int) -> tuple[torch.Tensor, dict[str, int]]:
    """gensim's vectors and their vocabulary (gensim itself imported before the timing starts)."""
    from gensim.models import Word2Vec

    model = Word2Vec(news_words(), vector_size=NEWS.dim, window=NEWS.window, min_count=NEWS.min_count, sg=1, hs=0,
                     negative=NEWS.negatives, ns_exponent=0.75, sample=0, shrink_windows=False, epochs=epochs,
                     seed=seed, workers=1)
    return torch.from_numpy(model.wv.vectors), model.wv.key_to_index


def train_course(epochs: int, seed: int, device: torch.device, hand_written: bool) -> torch.Tensor:
    """The centre vectors of the skipgram-news task's model, trained as python -m seqmodels.train trains it."""
    seed_everything(seed)
    setup = SKIPGRAM_NEWS.build(device=device, hand_written=hand_written, seed=seed)
    trainer = Trainer(setup.model, setup.step, lr=SKIPGRAM_NEWS.lr, device=device, seed=seed, progress=False)
    trainer.fit(setup.train, epochs=epochs)
    return trainer.model.E.weight.detach().float().cpu()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", help="the course's model's device (default: the fastest available)")
    parser.add_argument("--epochs", type=int, default=NEWS.epochs, help=f"default: {NEWS.epochs}")
    parser.add_argument("--hand-written", action="store_true", help="also time the chapter's negative_sampling_loss")
    parser.add_argument("--rounds", type=int, default=2, help="timings of every row, interleaved; the best is kept")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    try:
        import gensim.models  # noqa: F401  (the import's seconds stay out of the timings)
    except ImportError:
        print("bench/embeddings.py compares with gensim: pip install gensim==4.4.0 (make env installs it)")
        return 1
    device = bench_device(args.device)
    if device.type == "cpu":
        torch.set_num_threads(1)  # as gensim's workers=1
    facts = run_facts(device, rounds=args.rounds, **(vars(NEWS) | {"epochs": args.epochs}))
    course_vocab = news_vocabulary(NEWS.min_count)[1]  # the task's, rebuilt outside the timing
    rows = {"gensim Word2Vec (anchor)": lambda: train_gensim(args.epochs, seed=0),
            "seqmodels SkipGram": lambda: (train_course(args.epochs, 0, device, hand_written=False), course_vocab)}
    if args.hand_written:
        rows["seqmodels, hand-written loss"] = lambda: (train_course(args.epochs, 0, device, hand_written=True),
                                                        course_vocab)
    seconds = {name: float("inf") for name in rows}
    trained = {}
    for _ in range(args.rounds):
        for name, train in rows.items():
            synchronize(device)
            start = time.perf_counter()
            trained[name] = train()
            synchronize(device)
            seconds[name] = min(seconds[name], time.perf_counter() - start)

    anchor = seconds["gensim Word2Vec (anchor)"]
    print(f"{'row':<30} {'seconds':>8} {'ratio':>7} {'analogy acc':>12} {'WS-353 rho':>11} {'SimLex rho':>11}"
          "  (questions, pairs, pairs)")
    results = {}
    for name, (E, vocab) in trained.items():
        scores = benchmark_scores(E, vocab)
        results[name] = {"seconds": seconds[name], "ratio": seconds[name] / anchor, **scores}
        print(f"{name:<30} {seconds[name]:>8.2f} {seconds[name] / anchor:>6.2f}x {scores['analogy_accuracy']:>12.3f}"
              f" {scores['wordsim353_spearman']:>11.3f} {scores['simlex999_spearman']:>11.3f}"
              f"  ({scores['analogy_questions']}, {scores['wordsim353_pairs']}, {scores['simlex999_pairs']})")
    write_json(args.json, {"facts": facts, "rows": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
