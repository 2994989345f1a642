# Windows need a token stream (E9005).
echo '[1,2]' | pskd-pack -t '(idx[50], idx[50])' | pskd-window -t 3
