# stats.mk - the statistics family (src/stats): pskd-stats (every stream
# kind to one object of statistics; frames through the dedup family's
# reader) and pskd-report (the objects and the manifest to one HTML page;
# the manifest through pskd-get's parser).
$(B)/pskd-stats $(B)/pskd-report: $(O)/libpskd-stats.a
$(B)/pskd-stats: $(O)/libpskd-dedup.a
$(B)/pskd-report: $(O)/libpskd-get.a
