# A bad option: exit 2 and getopt's message (the usage text follows it).
pskd-unzst -x "$TESTDIR/data/docs.jsonl.zst" 2> err
s=$?
head -n 1 err >&2
exit $s
