# lid.mk - pskd-lid's family (src/lid): fastText models checked in C
# (check.c) and loaded and run by Debian's libfasttext through ft.cc, the
# one C++ file (a shim with a C API), compiled here with $(CXX).
LIDCXX   = $(CXX)
LIDWARN  = -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion
$(O)/lid/ft.o: src/lid/ft.cc src/lid/ft.h
	@mkdir -p $(@D)
	$(LIDCXX) $(PSKD_CPPFLAGS) $(CPPFLAGS) $(LIDWARN) $(WERROR:1=-Werror) \
	    $(CFLAGS) -std=c++14 -MMD -MP -c -o $@ $<
$(O)/libpskd-lid.a: $(O)/lid/ft.o

# libfasttext and the C++ runtime: pskd-lid, and what links the whole
# family (unit tests, fuzz replays; libFuzzer builds compile ft.cc too).
$(B)/pskd-lid: $(O)/libpskd-lid.a
$(B)/pskd-lid: LIBS += -lfasttext -lstdc++
$(O)/tests/%: LIBS += -lfasttext -lstdc++
fuzz: LIBS += -lfasttext -lstdc++ -fsanitize-link-c++-runtime
fuzz: FAMSRC += src/lid/ft.cc

# make install: the models make deps put in vocab/ (lid176.ftz).
install: lid-install-models
lid-install-models: all
	if ls vocab/*.ftz > /dev/null 2>&1; then \
	    mkdir -p $(DESTDIR)$(DATADIR) && \
	    cp vocab/*.ftz $(DESTDIR)$(DATADIR)/; fi
.PHONY: lid-install-models
