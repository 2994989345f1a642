# With -f, input shorter than a magic number is copied.
printf X > x.txt
printf "(\265" > y.txt
pskd-unzst -f x.txt y.txt | od -An -c
