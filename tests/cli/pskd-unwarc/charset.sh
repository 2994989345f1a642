# An unknown charset: exit 1 unless --rejects.
{ b='HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=klingon\r\n\r\n<p>x</p>'; printf 'WARC/1.1\r\nWARC-Type: response\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%b\r\n\r\n' $(printf '%b' "$b" | wc -c) "$b"; } > k.warc && pskd-unwarc k.warc
