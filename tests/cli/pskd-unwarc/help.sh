pskd-unwarc --help | head -n 1
