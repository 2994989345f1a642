# The last line had no newline; the kept line gets one.
printf '{"text":"x y"}\n{"text":"z"}' | pskd-shingle | pskd-minhash | pskd-lsh -q
