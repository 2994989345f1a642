# Options that do not fit together, or do not fit the model: exit 2 with
# the message (the usage text after it is cut).
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
# The folders searched for a model, named as the test sees them (the
# last, the installed one, depends on the build's PREFIX).
try() {
	no_usage pskd-lid "$@" < /dev/null 2> err
	echo "exit $?"
	sed "s|$PSKD_VOCAB_DIR|VOCAB|; s|$PSKD_BIN|BIN|g; s|, /[^ ]*pskd (make|, DATADIR (make|" err >&2
}
try --keep en
try -m lid176 --min 0.5
try -m lid176 --keep en --label en
try -m lid176 --label en -k 2
try -m lid176 --no-annotate
try -m lid176 --as lang-id
try -m lid176 -t 1.5
try -m lid176 -k 0
try -m lid176 --keep en,xx
try -m lid176 --label __label__zz
try -m lid176 -o same.tsv --verdicts same.tsv
try -m no_such_model
