# -H: the same bytes when nothing is wrong, held or not, for every format.
for f in zst gz xz bz2; do pskd-unzst -H "$TESTDIR/data/docs.jsonl.$f"; done
