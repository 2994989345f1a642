# The texts fastText reads oddly, each as python3-fasttext's
# model.predict(text.replace("\n", " ")) scores it: empty; newlines only
# (the same: no token but the end of line); a token "</s>" ends the line
# for fastText, so what follows it does not count (3 = 4); a label token
# is not a word (5 = 6); NUL, tab, CR, vertical tab and form feed
# separate words as a space does (7 = 8); U+2028 does not (9).
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
cat > in.jsonl <<'IN'
{"id":1,"text":""}
{"id":2,"text":"\n\n\n"}
{"id":3,"text":"Der Ausschuss </s> The committee met on Tuesday"}
{"id":4,"text":"Der Ausschuss"}
{"id":5,"text":"__label__en Der Ausschuss"}
{"id":6,"text":"Der Ausschuss"}
{"id":7,"text":"Der\u0000Ausschuss\that\rden\u000bHaushalt\fberaten"}
{"id":8,"text":"Der Ausschuss hat den Haushalt beraten"}
{"id":9,"text":"Der\u2028Ausschuss"}
IN
pskd-lid -q -m lid176 in.jsonl | sed 's/.*"id":\([0-9]*\),.*"language":/\1 /'
