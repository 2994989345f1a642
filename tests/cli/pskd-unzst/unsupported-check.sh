# xz's own unsupported-check.xz: a check ID the format reserves.  xz -dc
# decodes it unverified (with a warning, exit 2); pskd-unzst refuses it
# before any byte goes out, streamed or held.
cd "$TESTDIR/data/xz-files" && pskd-unzst unsupported-check.xz
