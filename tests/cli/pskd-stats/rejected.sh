# Rejected documents (pskd-shingle --rejects): a verdict, and a tombstone
# line that goes on with the document's line.
printf 'b\trejected\na\tkeep\nc\trejected\t{"text": 1}\n' | pskd-stats -l r
