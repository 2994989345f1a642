# The verdicts of the document stages (pskd-verdicts(5)): keep is kept;
# every other verdict word is a drop, counted by its name, in the order of
# the names' bytes; two shards' objects merge name by name.
printf 'd1\tkeep\nd2\tgopher_short_doc\t12\t50\nd3\tlanguage\tde\t0.65\nd4\tkeep\nd5\tlanguage\tfr\t0.2\n' > s1.lid.verdicts
printf 'e1\tcontaminated\tgsm8k:3\tthe cat sat\ne2\tkeep\ne3\tc4.javascript\t1\t0\ne4\texact_duplicate\td1\n' > s2.filter.verdicts
pskd-stats s1.lid.verdicts s2.filter.verdicts
pskd-stats -m -l both s1.lid.verdicts s2.filter.verdicts
