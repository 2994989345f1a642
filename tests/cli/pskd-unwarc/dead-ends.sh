# End tags that close nothing (</article> with no article open) do not
# lower the depth: each <div> stays open in gumbo's tree, which a count of
# start less end tags took for flat (this page hung the extractor).  Cut at
# the bound on elements open, as a page nesting that deep is.
python3 -c "import sys; sys.stdout.write('<html><body><p>Words before the nesting, enough of them to be a paragraph of text here.</p>' + '<div></article>' * 200000 + '<p>deep</p>')" > n.html && { printf 'WARC/1.0\r\nWARC-Type: resource\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n' $(wc -c < n.html); cat n.html; printf '\r\n\r\n'; } | timeout 60 pskd-unwarc
