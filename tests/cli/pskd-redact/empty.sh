pskd-redact < /dev/null | wc -c
