# The samples themselves follow -i, leaf by leaf in batches: sample k of
# this file is ([k, k+1], k*10), so each batch shows its indices.
seq 0 9 | awk '{ printf "[[%d,%d],%d]\n", $1, $1 + 1, $1 * 10 }' |
    pskd-pack -t '(idx[20][2], idx[100])' -o s.psk.d
pskd-shuffle -i -s 7 -B 3 s.psk.d
pskd-shuffle -s 7 -B 3 s.psk.d | pskd-info -n all
pskd-shuffle -s 7 -n 2 s.psk.d | pskd-info -s
