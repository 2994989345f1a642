printf "PSKD\001\000\006\000\000\000idx[x]\000\000\000\000\000\000\000\000" > x.psk
pskd-info x.psk
