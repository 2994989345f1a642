# The reader of the pipe goes away: the run ends quietly (SIGPIPE).
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
yes '{"text":"The committee met on Tuesday to review the budget."}' |
    head -n 200000 | pskd-lid -q -m lid176 | head -c1
echo
