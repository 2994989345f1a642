pskd-pack -t "(idx[3], ℕ)" < /dev/null
