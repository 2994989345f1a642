# Key lines out of order give no pairs where equal keys are apart: any
# line before the one above it is an error, not a silent empty result.
printf '%s\n' '0000000a 0000 0000000000 0000000001' \
    '0000000b 0000 0000000000 0000000001' \
    '0000000a 0000 0000000000 0000000002' \
    '0000000b 0000 0000000000 0000000002' | pskd-lsh --pairs
