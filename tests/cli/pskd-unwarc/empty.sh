pskd-unwarc < /dev/null
