# --rejects: each bad document goes to the file as FILE, LINE, reason (a
# text that is null, missing or not a string, bad JSON, a lone surrogate,
# invalid UTF-8 with -l) and leaves no token, not even its end-of-text;
# the run goes on and exits 0.  Only bad documents: exit 1.
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf '%s\n' '{"text": "good one"}' '{"text": null}' '{"body": "b"}' \
    '{"text": "x",}' '{"text": 7}' '{"text": "bad \udc80"}' \
    '{"text": "good two"}' > in.jsonl
pskd-tok -q -E cl100k_base --rejects rej.tsv in.jsonl > out.psk.d
echo "exit $?"
pskd-tok -d -E cl100k_base out.psk.d
echo
cat rej.tsv
printf 'one\n\377\ntwo\n' > in.txt
pskd-tok -q -l -E cl100k_base --rejects rej2.tsv in.txt |
    pskd-tok -d -E cl100k_base
echo
cat rej2.tsv
printf '{"text": 1}\n' | pskd-tok -q -E cl100k_base --rejects rej3.tsv > /dev/null
echo "exit $?"
cat rej3.tsv
