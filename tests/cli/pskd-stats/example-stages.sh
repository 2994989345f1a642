# The EXAMPLES of pskd-stats(1) for the stages' verdicts, verbatim, on
# verdict files made by hand.
mkdir -p data/clean
printf 'a\tkeep\nb\tlanguage\tde\t0.7\n' > data/clean/sotu-000.lang.verdicts
printf 'a\tgopher_short_doc\t3\t50\n' > data/clean/sotu-000.filter.verdicts
for st in lang filter; do pskd-stats -l sotu-000.$st data/clean/sotu-000.$st.verdicts; done > stages.json
cat stages.json
