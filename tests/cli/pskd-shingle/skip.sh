# -s skips bad lines, counts them, and still exits 1.
printf '{"text":"a"}\nnot json\n{"text":"b"}\n{"text":3}\n' |
    pskd-shingle -s > out
status=$?
"$TESTDIR/dump.py" --summary < out
exit $status
