printf 'ba\\c\tb\n\\ü\n' | pskd-tok --build-vocab -r
echo --
printf 'ba\\c\tb\n\\ü\n' | pskd-tok --build-vocab -l
