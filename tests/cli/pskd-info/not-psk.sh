echo hello > x.psk
pskd-info x.psk
