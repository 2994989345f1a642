pskd-decon -F question,answer -b "$TESTDIR/bench/grade_school_math/data/test.jsonl" "$TESTDIR/docs.jsonl" > /dev/full
