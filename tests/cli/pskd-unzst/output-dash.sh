# -o - is the standard output (issue 24): no file named "-".
pskd-unzst -o - "$TESTDIR/data/docs.jsonl.zst"
ls -A
