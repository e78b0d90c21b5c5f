"""bpe_train takes the most frequent pair with Counter.most_common(1), which breaks a tie by the pair counted first, not by the smallest pair as the syllabus says.

answers: solution
loses: test_bpe_train_example test_bpe_train_random
hint: break ties with min() over the tied pairs
"""
# %% bpe_train
def bpe_train(word_counts, num_merges):
    words = {word: [*word[:-1], word[-1] + "</w>"] for word in word_counts if word}
    merges = []
    for _ in range(num_merges):
        pairs = Counter()
        for word, symbols in words.items():
            for pair in zip(symbols, symbols[1:]):
                pairs[pair] += word_counts[word]
        if not pairs:
            break
        pair = pairs.most_common(1)[0][0]
        merges.append(pair)
        for word, symbols in words.items():
            merged, i = [], 0
            while i < len(symbols):
                if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
                    merged.append(symbols[i] + symbols[i + 1])
                    i += 2
                else:
                    merged.append(symbols[i])
                    i += 1
            words[word] = merged
    return merges
