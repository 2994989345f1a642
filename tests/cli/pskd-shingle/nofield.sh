printf '{"body":"x"}\n' | pskd-shingle > /dev/null
