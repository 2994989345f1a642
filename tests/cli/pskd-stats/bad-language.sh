# The language members must be a string and a number from 0 to 1.
printf '%s\n' '{"text":"a","language":3}' | pskd-stats
printf '%s\n' '{"text":"a","language":"en"}' '{"text":"a","language_score":1.5}' | pskd-stats
printf '%s\n' '{"text":"a","language_score":"0.5"}' | pskd-stats
