pskd-get -q -d out nothere.txt
