# Text is not a token stream (E9002).
echo hello | pskd-window -t 2
