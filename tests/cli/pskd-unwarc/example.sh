# pskd-unwarc(1): the commands of its EXAMPLES, verbatim.
cp "$TESTDIR/../../data/warc/cc-whirlwind.warc.gz" "$TESTDIR/../../data/warc/cc-whirlwind.warc.wet.gz" \
    "$TESTDIR/../../data/warc/warcio-example.warc" "$TESTDIR/../../data/warc/made.warc.gz" .
pskd-unwarc -q cc-whirlwind.warc.gz | head -c 120
echo
pskd-unwarc -q cc-whirlwind.warc.wet.gz | wc -l
pskd-unwarc -q -a -t none warcio-example.warc | wc -l
pskd-unwarc -s 3 made.warc.gz > ranges
while read r; do pskd-unwarc -q -r "$r" made.warc.gz; done < ranges > joined
pskd-unwarc -q made.warc.gz | cmp - joined
pskd-unwarc -q made.warc.gz | pskd-shingle | pskd-minhash | pskd-lsh -q | wc -l
