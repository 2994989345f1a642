# tests/cli/lib.sh - shared by the golden cases: . "$TESTDIR/../lib.sh"

# no_usage CMD [ARG...]: run CMD with its stderr cut before the usage text
# a usage error ends with ("usage: ..." and the indented lines after it), so
# a golden file pins the message and not the synopsis (tests/t/synopsis
# checks that against the manual).  Returns CMD's exit status.
no_usage() {
	_nu_err=$(mktemp "${TMPDIR:-/tmp}/pskd-nu.XXXXXX")
	"$@" 2> "$_nu_err"
	_nu_status=$?
	awk '/^usage: / { skip = 1; next } skip && /^[ \t]/ { next }
	    { skip = 0; print }' "$_nu_err" >&2
	rm -f "$_nu_err"
	return $_nu_status
}

# need_vocab NAME...: skip the case (exit 77) unless make deps fetched the
# vocabulary files NAME (cl100k_base.tiktoken, llama3.json) into
# $PSKD_VOCAB_DIR.
need_vocab() {
	for _nv in "$@"; do
		[ -f "${PSKD_VOCAB_DIR:-}/$_nv" ] && continue
		echo "skip: needs $_nv (make deps fetches it into vocab/)" >&2
		exit 77
	done
}

# need CMD...: skip the case unless each CMD is on the PATH.
need() {
	for _nd in "$@"; do
		command -v "$_nd" > /dev/null 2>&1 && continue
		echo "skip: needs $_nd" >&2
		exit 77
	done
}
