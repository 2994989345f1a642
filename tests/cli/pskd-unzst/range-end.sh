# 190 is inside the only stream: an error when the stream ends past it,
# after its lines went out (streamed; -H would hold them).
cp "$TESTDIR/data/docs.jsonl.bz2" . && pskd-unzst -r 0-190 docs.jsonl.bz2
