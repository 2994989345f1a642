# -s cuts at records that start a member; the ranges together are the file.
cp "$TESTDIR/../../data/warc"/made.warc.gz . && pskd-unwarc -s 3 made.warc.gz > ranges && cat ranges && while read r; do pskd-unwarc -q -r "$r" made.warc.gz; done < ranges > joined && pskd-unwarc -q made.warc.gz | cmp - joined && echo joined
