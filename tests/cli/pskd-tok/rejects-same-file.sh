# --rejects and -o naming one file: refused before anything is written,
# and no file is left under the name.
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
printf '{"text":"fine"}\n' > d.jsonl
no_usage pskd-tok --rejects X -o X d.jsonl
echo "exit $?"
ls -A
