# An error in the second file names it, with the sample index in that file.
printf '[1,2]\n' > a.txt
printf '[1,2]\n[1,5]\n' > b.txt
pskd-pack -t 'idx[3][2]' -o ab.psk.d a.txt b.txt
ls
