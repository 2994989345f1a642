# Five documents (9 ends each; the last has no 9) of 3, 4, 2, 7 and 1
# tokens in rows of R = 4, worked by hand from pskd-window(1):
# plain windows with segments (a new one after each 9); --align bos pads
# the row 1 2 9 (3 4 5 9 does not fit), carries the 7 tokens 7 8 1 2 3 4 9
# as 7 8 1 2 and 2 3 4 9 (one token of overlap), drops the last row of one
# token (5); best-fit from three: 3 4 5 9 (the longest that fits), then
# 1 2 9 and 5, then 6 9 and the crop 7 8 of the shortest left.
printf '%s\n' 1 2 9 3 4 5 9 6 9 7 8 1 2 3 4 9 5 | pskd-pack -t 'idx[10]' -o t.psk.d
echo plain
pskd-window -t 3 -e 9 --segments t.psk.d | pskd-info -s
echo align
pskd-window -t 3 --align bos -e 9 --segments t.psk.d | pskd-info -s
echo best-fit
pskd-window -t 3 --pack best-fit -N 3 -e 9 --segments t.psk.d | pskd-info
echo best-fit, a buffer of one
pskd-window -t 3 --pack best-fit -N 1 -e 9 t.psk.d | pskd-info -s
