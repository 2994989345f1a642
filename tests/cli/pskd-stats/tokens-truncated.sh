# Three bytes of two-byte ids.
printf 'PSKD\001\000\011\000\000\000idx[1000]\377\377\377\377\377\377\377\377\001\000\002' | pskd-stats
