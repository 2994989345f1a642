# A file with the streaming count was left by a killed writer.
printf 'PSKD\001\000\007\000\000\000idx[10]\377\377\377\377\377\377\377\377\001\002' > left.psk.d
pskd-stats left.psk.d
