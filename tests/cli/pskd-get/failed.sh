# A missing file fails its shard; the others complete; exit 1.
printf "w\n" > w.bin
printf "file://%s/nothere\nfile://%s/w.bin\n" "$PWD" "$PWD" > urls.txt
pskd-get -q -d out urls.txt 2> err
echo "exit $?"
sed "s|$PWD|PWD|" err
cat out/w.bin
grep -c "\"status\": \"failed\"" out/manifest.json
pskd-get --verify -d out
