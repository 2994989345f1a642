: > x.psk
pskd-info x.psk
