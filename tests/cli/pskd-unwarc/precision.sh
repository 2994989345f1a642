# --favour-precision and --favour-recall: less and more of a page.
for m in --favour-precision '' --favour-recall; do pskd-unwarc -q $m "$TESTDIR/../../data/warc"/cc-whirlwind.warc.gz | wc -c; done
