# A type with a real leaf holds no tokens.
printf 'a\n' > v.txt
printf '[0,1.5]\n' | pskd-pack -t '(idx[2], ℝ)' | pskd-tok -d -E char -v v.txt
