# Empty input is not a .psk.d stream.
pskd-window -t 3 < /dev/null
