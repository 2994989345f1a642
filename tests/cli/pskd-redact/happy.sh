# Emails then public addresses replaced in turn, the turn starting over
# with each document (e is a and comes out the same); private, loopback,
# shared, documentation addresses stay, and so does one with a leading
# zero (Python's ipaddress refuses it) - as datatrove's PIIFormatter
# replaces them, one fresh formatter a document.  A document with nothing
# to replace comes out byte for byte.
cp "$TESTDIR/docs.jsonl" .
pskd-redact --verdicts v.tsv docs.jsonl
cat v.tsv
