printf '{"version": 1, "shards": [\n]}\n' > m.json
mkdir d
printf 'a\tkeep\n' | pskd-stats > d/a.json
printf '{"pskd_stats":2}\n' >> d/a.json
pskd-report -o r.html m.json d
echo "exit $?"
ls -a
