# --help: the usage on standard output, then every option, the training
# ones too (no pointer to a "--train --help" that does not parse).
pskd-tok --help > out || exit 1
sed -n 1p out
grep -c -- '--train --help' out
grep -o -- '--min-frequency F\|--special TOKEN\|--train N ' out | sort -u
