# A line that is not a JSON object stops the run where it is; nothing
# is written to -o.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
printf '{"text":"a"}\n{"text":"b"\n{"text":"c"}\n' | pskd-lid -q -m lid176 -o out.jsonl
rc=$?
ls out.jsonl 2> /dev/null
exit $rc
