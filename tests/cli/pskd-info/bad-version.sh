printf "PSKD\003\000\006\000\000\000idx[3]\000\000\000\000\000\000\000\000" > x.psk
pskd-info x.psk
