# Plain text, one document a line, an empty one too.
printf 'one\ntwo words\n\n' | pskd-stats -t lines
