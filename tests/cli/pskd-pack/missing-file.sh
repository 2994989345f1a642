pskd-pack -t "ℝ" nonexistent.txt
