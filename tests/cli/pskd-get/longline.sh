# A comment line over 1 MiB, comments and blank lines.
printf "y\n" > y.bin
{ printf "# "; head -c 1500000 /dev/zero | tr "\0" c; printf "\n\n  # indented\n"
  printf "file://%s/y.bin\n" "$PWD"; } > urls.txt
pskd-get -q -d out urls.txt
cat out/y.bin
