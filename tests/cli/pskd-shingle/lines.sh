# -l: plain lines, ids FILE:LINE, an empty line gives no shingles.
printf 'one two three four five six\n\nsix\n' > in.txt
pskd-shingle -l -w 5 in.txt | "$TESTDIR/dump.py"
