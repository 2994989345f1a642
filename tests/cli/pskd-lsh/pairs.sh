# Sorted key lines: each document sharing a key and band with earlier
# ones, paired with each of them (the later first); a repeated line is
# out of order too.
printf '%s\n' '0000000a 0000 0000000000 0000000001' \
    '0000000a 0000 0000000000 0000000002' \
    '0000000a 0000 0000000001 0000000000' \
    '0000000a 0001 0000000000 0000000003' \
    '0000000b 0000 0000000000 0000000004' | pskd-lsh --pairs
printf '%s\n' '0000000a 0000 0000000000 0000000001' \
    '0000000a 0000 0000000000 0000000001' | pskd-lsh --pairs
