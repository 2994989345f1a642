# A file that is not a fastText model, cut short anywhere, with a field
# fastText would trust, or with bytes after its end: one line each, exit
# 1, and nothing on standard output.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
m=$PSKD_VOCAB_DIR/lid176.ftz
run() {
	echo '{"text":"x"}' | pskd-lid -q -m "$@"
	echo "exit $?"
}
printf 'not a model\n' > text.bin
run text.bin
: > empty.ftz
run empty.ftz
for n in 7 40 100 4000 60000 400000 937000 938012; do
	head -c $n "$m" > cut.ftz
	run cut.ftz
done
# The dictionary's size (bytes 64-67) one more than its words and labels.
head -c 64 "$m" > big.ftz
printf '\130\034\000\000' >> big.ftz
tail -c +69 "$m" >> big.ftz
run big.ftz
# The bucket count (bytes 40-43) zero: fastText would divide by it.
head -c 40 "$m" > zero.ftz
printf '\000\000\000\000' >> zero.ftz
tail -c +45 "$m" >> zero.ftz
run zero.ftz
{ cat "$m"; printf 'x'; } > long.ftz
run long.ftz
run /nonexistent/lid.bin
mkdir dir.bin
run dir.bin
