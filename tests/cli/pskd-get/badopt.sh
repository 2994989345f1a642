pskd-get -x urls.txt
