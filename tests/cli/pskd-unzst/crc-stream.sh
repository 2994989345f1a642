# Streamed (the default): what decoded before the error is out, as the
# format's own tool writes it (the .stdout is its output); then exit 1.
cp "$TESTDIR/data/crc.gz" . && pskd-unzst crc.gz
