# pskd-lid's members: the languages by name, and the scores' distribution
# in ten-thousandths (0.65 is 6500, 0.99996 rounds to 1); a document
# without them, or with null, counts in neither.
printf '%s\n' '{"text":"a","language":"en","language_score":0.65}' \
    '{"text":"bb","language":"de","language_score":0.99996}' \
    '{"text":"c","language":"en","language_score":1e-1}' \
    '{"text":"d"}' '{"text":"e","language":null,"language_score":null}' |
    pskd-stats -l L
printf '%s\n' '{"text":"a","lid":{"l":"sw","p":0}}' |
    pskd-stats --language lid.l --language-score lid.p -l N
