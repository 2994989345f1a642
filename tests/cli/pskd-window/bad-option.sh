pskd-window -x -t 3
