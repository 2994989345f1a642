#!/bin/sh
# pack.sh - pskd-pack turning a 1 GB .psk.d stream from a pipe into a file,
# against cat moving the same bytes through the same pipe.  Two types: one
# whose u16 ids fill their width (a plain copy), one whose bound needs every
# id checked (idx[50000]).  Ratios are throughput pskd-pack / cat.
set -eu
d=$PSKD_BENCH_DIR/pack
mkdir -p "$d"
size=${PSKD_BENCH_PACK_MB:-1024}
for v in 65536 50000; do
	f=$d/ids-$v-$size.psk.d
	[ -f "$f" ] && continue
	/usr/bin/python3 - "$f" "$v" "$size" <<'PY'
import sys
import numpy as np
path, v, mb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
n = mb * (1 << 20) // 2
t = b"idx[%d]" % v
with open(path, "wb") as f:
    f.write(b"PSKD" + (1).to_bytes(2, "little") + len(t).to_bytes(4, "little")
            + t + n.to_bytes(8, "little"))
    rng = np.random.default_rng(1)
    left = n
    while left:
        k = min(left, 1 << 26)
        f.write(rng.integers(0, v, size=k, dtype=np.uint16).tobytes())
        left -= k
PY
done

ratio() {	# label time-pskd time-anchor
	awk -v l="$1" -v a="$2" -v b="$3" -v mb="$size" 'BEGIN {
	    printf "%s: pskd-pack %.0f MB/s, cat %.0f MB/s, ratio %.2f\n",
	    l, mb / a, mb / b, b / a }'
}

best() {	# command...: best wall time of 3 runs, in seconds
	b=
	for i in 1 2 3; do
		s=$(date +%s.%N)
		sh -c "$1"
		e=$(date +%s.%N)
		b=$(awk -v s="$s" -v e="$e" -v b="$b" 'BEGIN {
		    t = e - s; if (b == "" || t < b) b = t; print b }')
	done
	echo "$b"
}

for v in 65536 50000; do
	f=$d/ids-$v-$size.psk.d
	o=$d/out.psk.d
	# Alternate the two so both see the same machine load.
	tp=$(best "cat $f | pskd-pack > $o")
	tc=$(best "cat $f | cat > $o")
	ratio "idx[$v], $size MiB to a file" "$tp" "$tc"
	tp=$(best "cat $f | pskd-pack -o $o")
	tc=$(best "cat $f | cat > $o && sync $o")
	ratio "idx[$v], -o (fsync + rename) vs cat + sync" "$tp" "$tc"
	rm -f "$o"
done
if [ -x /usr/bin/time ]; then
	f=$d/ids-50000-$size.psk.d
	rss=$( { cat "$f" | /usr/bin/time -f %M pskd-pack > /dev/null; } 2>&1 | tail -1)
	echo "pskd-pack peak RSS on $size MiB: $rss KiB"
fi
