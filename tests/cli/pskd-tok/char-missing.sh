printf 'ab\n' | pskd-tok --build-vocab -l > v.txt
printf 'ab\nabc\n' | pskd-tok -E char -v v.txt -l > /dev/null
