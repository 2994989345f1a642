# A 1 GB record: too long for -m, refused before it is read.
{ printf 'WARC/1.0\r\nWARC-Type: resource\r\nContent-Type: text/html\r\nContent-Length: 1073741824\r\n\r\n'; head -c 1073741824 /dev/zero; printf '\r\n\r\n'; } | pskd-unwarc
