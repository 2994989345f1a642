pskd-get -j 0 urls.txt
