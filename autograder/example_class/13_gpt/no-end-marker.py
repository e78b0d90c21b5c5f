"""bpe_train and bpe_encode split a word into its bare characters, without the end-of-word symbol </w> on the last one.

answers: solution
loses: test_bpe_train_example test_bpe_train_random test_bpe_encode
hint: the last character carries '</w>'
hint: start from the characters with '</w>' on the last one
"""
# %% bpe_train
def bpe_train(word_counts, num_merges):
    words = {word: list(word) for word in word_counts if word}
    merges = []
    for _ in range(num_merges):
        pairs = Counter()
        for word, symbols in words.items():
            for pair in zip(symbols, symbols[1:]):
                pairs[pair] += word_counts[word]
        if not pairs:
            break
        best = max(pairs.values())
        pair = min(p for p, count in pairs.items() if count == best)
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


# %% bpe_encode
def bpe_encode(word, merges):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    symbols = list(word)
    while len(symbols) > 1:
        pair = min(zip(symbols, symbols[1:]), key=lambda p: ranks.get(p, math.inf))
        if pair not in ranks:
            break
        merged, i = [], 0
        while i < len(symbols):
            if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
                merged.append(symbols[i] + symbols[i + 1])
                i += 2
            else:
                merged.append(symbols[i])
                i += 1
        symbols = merged
    return symbols
