# A line of 1.4 MB, over the 1 MiB read buffer: one word of 1.4 million
# letters (fastText's n-grams of all of it), and the same letter as words.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
{ printf '{"text":"'; yes a | head -n 700000 | tr -d '\n'; printf '"}\n'
  printf '{"text":"'; yes a | head -n 700000 | tr '\n' ' '; printf '"}\n'; } > in.jsonl
pskd-lid -q -m lid176 in.jsonl | sed 's/.*"language":/"language":/'
pskd-lid -q -m lid176 --keep en -t 0 --no-annotate in.jsonl | cmp - in.jsonl && echo kept as it came
