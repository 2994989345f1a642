# A token at or above the bound (E9004), named by its position.
{ printf 'PSKD\001\000\007\000\000\000idx[50]'
  printf '\377\377\377\377\377\377\377\377\001\002\074\003'; } |
    pskd-window -t 2 > /dev/null
