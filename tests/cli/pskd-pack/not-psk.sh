printf "hello\n" | pskd-pack
