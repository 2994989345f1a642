# A run of -i leaves its state pending; --commit makes it the index (and
# with nothing pending does nothing); --abort drops a pending run and cuts
# the files back; a missing index is an error.
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash > s.sig
pskd-lsh -q -i idx s.sig > /dev/null
ls idx
head -2 idx/pending
pskd-lsh --commit idx && echo "committed: exit $?"
ls idx
head -2 idx/manifest
pskd-lsh --commit idx && echo "nothing pending: exit $?"
cp -r idx before
echo '{"id": "z", "text": "a new document with words of its own here"}' |
    pskd-shingle | pskd-minhash | pskd-lsh -q -i idx > /dev/null
wc -c < idx/sketches
pskd-lsh --abort idx && echo "aborted: exit $?"
for f in before/*; do cmp "$f" "idx/${f#before/}"; done
ls idx
pskd-lsh --abort idx && echo "nothing to abort: exit $?"
pskd-lsh --commit nope
echo "exit $?"
