# Invalid UTF-8 never reaches fastText: the JSON reader stops at it.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
printf '{"text":"ok"}\n{"text":"caf\351"}\n' | pskd-lid -q -m lid176 > /dev/null
