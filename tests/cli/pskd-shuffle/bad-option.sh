pskd-shuffle -x ten.psk.d
