# A tokenizer.json's strings must be UTF-8: a name or merge with an
# overlong form, a UTF-16 surrogate, a lone continuation byte or a
# sequence cut short is refused with its line; the three-byte forms
# just beside them (U+0800, U+D7FF, U+E000, U+FFFF) are taken.
for bad in '\340\200\200' '\355\240\200' '\200' '\342\226' '\300\257' \
    '\364\220\200\200'; do
	printf '{"model": {"type": "BPE", "vocab": {"a": 0,\n"x%bx": 1},\n"merges": []}}\n' \
	    "$bad" > bad.json
	pskd-tok -v bad.json < /dev/null
	echo "exit $?"
done
printf '{"model": {"type": "BPE", "vocab": {"\340\240\200": 0, "\355\237\277": 1, "\356\200\200": 2, "\357\277\277": 3, "\342\226\201": 4, "\342\226\201\340\240\200": 5},\n"merges": ["\342\226\201 \340\240\200"]}}\n' > good.json
printf '\342\226\201\340\240\200\355\237\277\356\200\200\357\277\277' |
    pskd-tok -r --no-eot -v good.json | pskd-info -s -n all | tr '\n' ' '
echo
