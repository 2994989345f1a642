# Not a WARC file: the file, the record and the offset.
printf 'GET / HTTP/1.1\r\n\r\n' > x.warc && pskd-unwarc x.warc
