# Another model than BPE is refused, not encoded otherwise.
printf '{"model": {"type": "WordPiece", "vocab": {"a": 0}}}\n' > tok.json
printf 'a\n' | pskd-tok -l -v tok.json
