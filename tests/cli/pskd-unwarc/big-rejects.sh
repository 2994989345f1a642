# With --rejects the 1 GB record is skipped unread and the next one read.
{ printf 'WARC/1.0\r\nWARC-Type: resource\r\nContent-Type: text/html\r\nContent-Length: 1073741824\r\n\r\n'; head -c 1073741824 /dev/zero; printf '\r\n\r\n'; cat "$TESTDIR/../../data/warc"/cc-whirlwind.warc.wet; } | pskd-unwarc -q --rejects r.tsv | wc -l; cat r.tsv
