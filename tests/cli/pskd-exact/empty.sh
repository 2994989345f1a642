pskd-exact < /dev/null
pskd-exact -g doc < /dev/null
