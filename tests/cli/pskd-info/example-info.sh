printf '[[0.5,1,2],7]\n' | pskd-pack -t '(ℝ[3], idx[10])' -o one.psk.d
pskd-info one.psk.d
pskd-info -s -n all one.psk.d | pskd-pack -t '(ℝ[3], idx[10])' -o copy.psk.d
cmp one.psk.d copy.psk.d
