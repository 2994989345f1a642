printf "[0.5]\n[0.1]\n" | pskd-pack -t "ℝ[1]" -e f32 -o out.psk; ls
