pskd-unwarc --version
