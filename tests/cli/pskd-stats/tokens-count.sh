# A count of 5 but 3 samples.
printf 'PSKD\001\000\007\000\000\000idx[10]\005\000\000\000\000\000\000\000\001\002\003' > short.psk.d
pskd-stats short.psk.d
