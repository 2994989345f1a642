# A file of no samples shuffles to a stream of none; an empty file is not
# a .psk.d file.
printf '' | pskd-pack -t 'idx[50]' -o none.psk.d
pskd-shuffle -B 4 none.psk.d | pskd-info
: > empty
pskd-shuffle empty
