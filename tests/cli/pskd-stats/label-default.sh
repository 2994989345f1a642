# The default label: the file's name up to its first dot.
mkdir -p dir
printf 'a\tkeep\n' > dir/sotu-000.verdicts
printf 'a\tkeep\n' > dir/.hidden
pskd-stats dir/sotu-000.verdicts dir/.hidden
