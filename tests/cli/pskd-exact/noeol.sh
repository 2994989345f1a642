# The last line had no newline; the kept line gets one, and the line cut
# from the second document is the first one's last, without a newline.
printf '{"text":"a b\\nc d"}\n{"text":"x\\nc d"}' | pskd-exact -q
