# A bad sha256 on line 3: nothing is downloaded, nothing created.
printf "z\n" > z.bin
printf "# shards\nfile://%s/z.bin\nfile://%s/z.bin abc\n" "$PWD" "$PWD" > urls.txt
pskd-get -q -d out urls.txt
echo "exit $?"
test -e out || echo "nothing created"
