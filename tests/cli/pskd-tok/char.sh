printf 'abc\n' > text
pskd-tok --build-vocab -r text > v.txt
printf 'cab\nbba\n' | pskd-tok -E char -v v.txt -l | pskd-info -n all
printf 'cab\nbba\n' | pskd-tok -E char -v v.txt -l | pskd-tok -d -E char -v v.txt
