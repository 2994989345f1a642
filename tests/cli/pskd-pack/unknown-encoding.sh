pskd-pack -t "ℝ" -e f16 < /dev/null
