# Two objects of one label and kind that do not merge.
printf '{"version": 1, "shards": [\n]}\n' > m.json
mkdir d
printf '1\n' | pskd-pack -t 'idx[10]' | pskd-stats -l t > d/a.json
printf '1\n' | pskd-pack -t 'idx[11]' | pskd-stats -l t > d/b.json
pskd-report m.json d
