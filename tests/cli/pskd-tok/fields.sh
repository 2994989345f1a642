# -f a.b reaches into objects; -f A,B joins the members found with a blank
# line (one missing is left out), as pskd-shingle's -f does.  A malformed
# list is a usage error.
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf '%s\n' '{"meta": {"title": "T"}, "text": "body"}' '{"text": "only"}' \
    '{"meta": {"title": "alone"}}' |
    pskd-tok -q -E cl100k_base -f meta.title,text | pskd-tok -d -E cl100k_base
echo
. "$TESTDIR/../lib.sh"
no_usage pskd-tok -f 'a..b' < /dev/null
echo "exit $?"
