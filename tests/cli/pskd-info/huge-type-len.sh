printf "PSKD\001\000\377\377\377\177idx[3]" > x.psk
pskd-info x.psk
