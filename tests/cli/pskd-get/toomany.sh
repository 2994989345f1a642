printf "file:///a - 1 extra\n" > urls.txt
pskd-get -q -d out urls.txt
