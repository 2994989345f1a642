# Usage errors: the message line only.
. "$TESTDIR/../lib.sh"
printf '{"text":"x"}\n' > b.jsonl
mkdir -p d
cp b.jsonl d/b.other.jsonl
printf '{"text":"x"}\n' > ':bad.jsonl'
for args in "-x" "" "-n 0 -b b.jsonl" "-n 1025 -b b.jsonl" \
    "--normalize words -b b.jsonl" "-b b.jsonl -b d/b.other.jsonl" \
    "-b :bad.jsonl" "-b b.jsonl -o x --verdicts x"; do
	no_usage pskd-decon $args < /dev/null
	echo "exit $?"
done
