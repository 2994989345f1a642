# -o - is the standard output (in every mode), not a file named "-".
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
printf '{"text":"Hello, world!"}\n' > d.jsonl
pskd-tok -o - d.jsonl | pskd-info -s -n all
pskd-tok -o - d.jsonl | pskd-tok -d -o -
echo
printf 'ab\n' | pskd-tok --build-vocab -r -o -
printf 'ab\n' | pskd-tok --train 256 -r -o - | sed -n 98p
ls
