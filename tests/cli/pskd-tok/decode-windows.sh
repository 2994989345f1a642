# Windows decode row by row, each row a line: x then y of each window.
# Characters a..g are tokens 0..6; windows of 3, stride 3, over abcdefg.
printf 'a\nb\nc\nd\ne\nf\ng\n' > v.txt
printf 'abcdefg' | pskd-tok -E char -v v.txt -r --no-eot | pskd-window -t 3 -s 3 > w.psk
pskd-tok -d -E char -v v.txt w.psk
