pskd-unparquet --help > out && head -n 1 out
