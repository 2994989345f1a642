# pskd-lsh --dropped lines: the verdict fields, then the original line.
printf 'b\tnear_duplicate\ta\t0.8\t{"text": "x\ty"}\nc\tnear_duplicate\ta\t1\t{}\n' | pskd-stats -l dropped
