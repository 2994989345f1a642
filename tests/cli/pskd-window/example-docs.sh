# The EXAMPLES of pskd-window(1) on documents, verbatim: rows of whole
# documents padded, and packed best-fit.
printf '%s\n' 1 2 9 3 4 5 9 6 9 | pskd-pack -t 'idx[10]' -o docs.psk.d
pskd-window -t 3 --align bos -e 9 --segments --single docs.psk.d | pskd-info -s
pskd-window -t 3 --pack best-fit -N 2 -e 9 --segments --single docs.psk.d | pskd-info -s
