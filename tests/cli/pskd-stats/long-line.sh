# A document of 1.5 MB on one line.
{ printf '{"text":"'; head -c 1500000 /dev/zero | tr '\0' a; printf '"}\n'; } | pskd-stats
