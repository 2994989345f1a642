# stats.mk - the statistics family (src/stats): pskd-stats (every stream
# kind to one object of statistics; frames through the dedup family's
# reader) and pskd-report (the objects and the manifest to one HTML page;
# the manifest through pskd-get's parser).
$(B)/pskd-stats $(B)/pskd-report: $(O)/libpskd-stats.a
$(B)/pskd-stats: $(O)/libpskd-dedup.a
# pskd-stats --length runs pskd-window's packer (src/batch/pack.c).
$(B)/pskd-stats: $(O)/libpskd-batch.a
$(B)/pskd-report: $(O)/libpskd-get.a
