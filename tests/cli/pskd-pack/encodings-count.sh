pskd-pack -t "(ℝ, ℝ)" -e f32 < /dev/null
