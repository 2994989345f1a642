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
