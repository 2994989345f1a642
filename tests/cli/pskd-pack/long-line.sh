awk "BEGIN { printf \"[\"; for (i = 0; i < 600000; i++) printf \"%s%d\", (i ? \",\" : \"\"), i % 10; print \"]\" }" > in.txt
pskd-pack -t "idx[10][600000]" -o big.psk in.txt
pskd-info -s big.psk | cmp - in.txt && wc -c < in.txt
