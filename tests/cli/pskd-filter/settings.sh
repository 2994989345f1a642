# Every setting and its default (datatrove's: see pskd-filter(1)), then
# with two changed.
pskd-filter --settings
pskd-filter --settings -s gopher.stop_words=the,a -s repetition.top_5_gram=0.5 | grep -e stop_words -e top_
