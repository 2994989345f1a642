# Only the bytes of each match change: the escapes and the spacing of the
# line around them stay (\u00e9, \u2014, \", the blanks around ":"), and
# a match that is partly escaped (\u00eb) is replaced whole.
cp "$TESTDIR/docs.jsonl" .
sed -n 4p docs.jsonl
sed -n 4p docs.jsonl | pskd-redact
