# Members the line has already (FineWeb's documents carry language and
# language_score) get the new value in their place; the others are
# appended after the last member; every other byte stays, the white space
# too.  A name given twice: the last one, which pskd's reader and
# python's json take, is the one rewritten.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
cat > in.jsonl <<'IN'
{"text":"Der Ausschuss hat den Haushalt beraten.","language":"en","language_score":0.9,"url":"x"}
{"language" : "xx" , "text":"Der Ausschuss hat den Haushalt beraten." }
{"text":"Der Ausschuss hat den Haushalt beraten.","language":1,"language":{"a":[1,2]}}	
{"text":"Der Ausschuss hat den Haushalt beraten.","meta":{"language":"en"}}
IN
pskd-lid -q -m lid176 in.jsonl
