# Windows with segment ids mix like any samples: batches leaf by leaf,
# the inputs, the targets, then the segment ids of the batch.
printf '%s\n' 1 2 9 3 4 5 9 6 9 | pskd-pack -t 'idx[10]' -o d.psk.d
pskd-window -t 3 --align bos -e 9 --segments -o a.psk.d d.psk.d
pskd-window -t 3 --pack best-fit -N 2 -e 9 --segments -o b.psk.d d.psk.d
pskd-mix -i -s 1 -B 2 a.psk.d:1 b.psk.d:1
pskd-mix -s 1 -B 2 a.psk.d:1 b.psk.d:1 | pskd-info
