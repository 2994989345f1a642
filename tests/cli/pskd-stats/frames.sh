# One document of six words: two 5-word shingles, then 128 components.
printf '{"id":"d","text":"a b c d e f"}\n' | pskd-shingle | pskd-stats
printf '{"id":"d","text":"a b c d e f"}\n' | pskd-shingle | pskd-minhash | pskd-stats
