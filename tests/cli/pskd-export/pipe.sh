# A pipe may carry the streaming count: it is read to its end, and split
# as it passes (the default --val-fraction 0.005 of nanogpt, a keyed hash
# of each document's number): val.bin is not empty, and its documents are
# those SplitMix64 (seed 0) puts below 0.005 x 2^64, computed here apart.
awk 'BEGIN { for (i = 0; i < 4000; i++) { print i % 9; print 9 } }' |
    pskd-pack -t "idx[10]" | pskd-export -f nanogpt -e 9 -o out > report.json
grep -o '"val":{[^}]*}' report.json
od -An -tu2 -v out/val.bin | tr -s ' \n' '  '
echo
/usr/bin/python3 -c '
M = (1 << 64) - 1
def mix(d):
    z = (0 + (d + 1) * 0x9E3779B97F4A7C15) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)
val = [d for d in range(4000) if mix(d) < int(0.005 * 2.0 ** 64)]
print(" ".join("%d 9" % (d % 9) for d in val))'
