cp "$TESTDIR/bad.tiktoken" .
pskd-tok -E cl100k_base -v bad.tiktoken < /dev/null > /dev/null
