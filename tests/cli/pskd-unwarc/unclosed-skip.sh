# 199000 nav elements that never end, then 8 MiB of tags that only look
# like theirs: the end of a dropped element is searched for once a page,
# not from each of its start tags to the end of the page (12 s before).
python3 -c "import sys; sys.stdout.write('<html><body><p>Words before the navigation, enough of them to be a paragraph of text here.</p>' + '<nav>' * 199000 + '<navx>' * 1300000)" > n.html && { printf 'WARC/1.0\r\nWARC-Type: resource\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n' $(wc -c < n.html); cat n.html; printf '\r\n\r\n'; } | timeout 60 pskd-unwarc
