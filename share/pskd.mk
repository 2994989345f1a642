# pskd.mk - one recipe for a training set from a list of shard URLs: fetch
# each shard with its manifest, verify it, deduplicate across all shards,
# tokenise, cut windows, pack.  Installed as PREFIX/share/pskd/pskd.mk; a
# build is a Makefile of five lines:
#
#   URLS = urls.txt
#   ENC  = cl100k_base
#   T    = 1024
#   SEED = 42
#   include /usr/local/share/pskd/pskd.mk
#
# Include it before any rule of your own, so that `make' builds `all'.
# Settings (before the include, or on the command line):
#
#   URLS       the URL list: URL [SHA256 [SIZE]] a line, as pskd-get(1)
#              reads it; http, https and file URLs; any number of lines
#   URLBASE    resolves a first word without a scheme (a mirror, a folder)
#   D          the build folder (data)
#   OUT        the training set (D/train.psk.d)
#   ENC        pskd-tok -E (cl100k_base unless TOKENIZER is set)
#   TOKENIZER  pskd-tok -v: a vocabulary file.  A tokenizer.json (NAME.json)
#              is compiled once into D/tokenizer.pskc (pskd-tok --compile),
#              which each shard's pskd-tok loads in a third to a fifth of
#              the JSON's time; TOKCOMPILE= (empty) reads the JSON instead
#   T, S       window length (1024) and stride (T), pskd-window(1)
#   SEED       the shuffle of the preview, pskd-shuffle(1)
#   FIELD      the documents' text member (text), pskd-shingle -f
#   DEDUP      index: one persistent index, shard after shard (default);
#              mapreduce: map, sort, pairs, cluster, apply (same verdicts)
#   P          map-reduce partitions (4); PIECES: pieces per shard (1)
#   LANG       pskd-lid --keep: the languages to keep (en, or en,de);
#              empty: no language step.  Taken from this Makefile or the
#              command line only, never from the locale's LANG variable
#   LANGSCORE  pskd-lid -t: kept when a kept language's score is over it
#              (0.65, FineWeb's); LANGMODEL: pskd-lid -m (lid176, or a
#              fastText model file: GlotLID's)
#   FILTER     pskd-filter -r: the rule sets (gopher-quality,c4,...);
#              empty: no filter step
#   DECON      benchmark files for pskd-decon -b (blank-separated);
#              empty: no decontamination step
#   LANGFLAGS FILTERFLAGS DECONFLAGS  more options of those stages
#   EXACT      pskd-exact -g: exact deduplication across all shards after
#              the document stages, at the grain doc, para, line or
#              span:N (see "the exact step" below); empty: no exact step
#   EXACTNORM  pskd-exact -n: its normalisation (empty: its default)
#   EXACTFLAGS more options of pskd-exact's index runs and --apply (-w N,
#              -m SIZE; --bloom N with DEDUP=index only: the map-reduce
#              holds the units themselves)
#   REDACT     1: pskd-redact replaces email and public IP addresses in
#              the kept documents on their way to pskd-tok (after
#              deduplication, where FineWeb formats PII); REDACTFLAGS
#              its options.  Tokens made before are not made again
#   UNWARCFLAGS  pskd-unwarc's options for WARC and WET shards (default
#              --rejects /dev/null: a bad record is counted on stderr and
#              skipped, not the end of the build)
#   BANDS ROWS THRESHOLD  pskd-lsh -b -r -t (empty: its defaults)
#   GETFLAGS SHINGLEFLAGS MINHASHFLAGS TOKFLAGS SORTFLAGS
#   ZSTDFLAGS  for the kept shards (-3; -19 makes them smaller at about a
#              hundredth of the speed, more CPU than all pskd stages)
#
# Each shard is NAME, its file name without .zst/.gz/.xz/.bz2 and
# .jsonl/.json/.ndjson/.parquet, or .warc (a WET file's .warc.wet is .wet)
# (NAME-2, NAME-3 ... when taken): it is
# fetched into D/shards/NAME/ with its own manifest, so shards are
# fetched and verified side by side (make -j, or one Slurm task each).
#
#   make            OUT and D/preview.txt (a shuffled window, decoded)
#   make fetch | verify | stages | exact | dedup | tokens   up to that
#                   stage
#   make summary    what the build made, in a few lines
#   make mapreduce  the map-reduce verdicts in MR (D/mr-P) without using
#                   them, to compare with the index's
#   make lists      D/lists/shards, pieces, parts: the work items of the
#                   steps below, one a line, for a scheduler; stages: the
#                   document stages that are on (an empty line when none);
#                   exact: NAME INPUT N a shard with EXACT set (what the
#                   exact step reads, relative to D, and its number), else
#                   nothing
#   make pskd-step-STEP-ITEM   one step of one item, its inputs made
#                   already (Slurm array tasks, parallel --sshlogin jobs):
#                   fetch-NAME clean-NAME exactmap-NAME exactreduce-PART
#                   exact-NAME map-PIECE pairs-PART cluster apply-NAME
#                   tok-NAME pack
#                   (with DEDUP=index, exact-NAME is the exact step of
#                   every shard up to NAME, one after another)
#
# Pieces: with PIECES=N each shard is read as N pieces (pskd_read, below:
# at frames, row groups or lines), each mapped as a shard of its own,
# numbered in list order,
# then piece, so the verdicts are those of whole shards.  (A document
# without an id is named by its line in the piece, not in the shard: the
# same verdicts under other names.)

SHELL = /bin/bash
.SHELLFLAGS = -o pipefail -ec
.DELETE_ON_ERROR:
.SUFFIXES:

URLS         ?= urls.txt
URLBASE      ?=
D            ?= data
OUT          ?= $(D)/train.psk.d
TOKENIZER    ?=
TOKCOMPILE   ?= 1
ENC          ?= $(if $(TOKENIZER),,cl100k_base)
T            ?= 1024
S            ?= $(T)
SEED         ?= 42
FIELD        ?=
DEDUP        ?= index
P            ?= 4
PIECES       ?= 1
BANDS        ?=
ROWS         ?=
THRESHOLD    ?=
GETFLAGS     ?= -q
SHINGLEFLAGS ?=
MINHASHFLAGS ?=
TOKFLAGS     ?=
SORTFLAGS    ?=
ZSTDFLAGS    ?= -3
MR           ?= $(D)/mr-$(P)$(if $(filter-out 1,$(PIECES)),x$(PIECES))
XR           ?= $(D)/xr-$(P)
FILTER       ?=
DECON        ?=
LANGMODEL    ?= lid176
LANGSCORE    ?= 0.65
LANGFLAGS    ?=
FILTERFLAGS  ?=
DECONFLAGS   ?=
EXACT        ?=
EXACTNORM    ?=
EXACTFLAGS   ?=
REDACT       ?=
REDACTFLAGS  ?=
UNWARCFLAGS  ?= --rejects /dev/null

# The document stages that are on, in the order they run: each shard's
# documents go through them into D/clean/NAME.jsonl.zst before
# deduplication (see "the document stages" below).  LANG is the locale's
# variable too: only a value given here or on the command line counts.
PSKD_STAGES   = lang filter decon
pskd_on.lang   = $(if $(filter environment,$(origin LANG)),,$(LANG))
pskd_on.filter = $(FILTER)
pskd_on.decon  = $(DECON)
pskd_clean    := $(strip $(foreach st,$(PSKD_STAGES),$(if $(strip \
    $(pskd_on.$(st))),$(st))))
# The exact step's grain, when it is on (see "the exact step" below).
pskd_exact    := $(strip $(EXACT))
ifneq ($(filter-out doc para line span span:%,$(pskd_exact))$(word 2,$(pskd_exact)),)
$(error pskd.mk: EXACT = $(EXACT): doc, para, line or span:N)
endif

all: $(OUT) $(D)/preview.txt

# ---- the shards, from the URL list ----------------------------------------

# The URL list read by awk, in one of four modes: table (NAME/FILE/STALE/
# INDEX a shard, STALE when D/shards/NAME.url is not its line; then
# lists/shards-stale when D/lists/shards is not the list), line (shard
# want's line as pskd-get reads it), shards (NAME shards/NAME/FILE a line;
# with a document stage on, NAME clean/NAME.jsonl.zst FILE: what dedup
# reads, and the shard's file, which its manifest names; with EXACT,
# exact/NAME.jsonl.zst), pieces (PIECE shards/NAME/FILE K N SEQ a line),
# exact (NAME INPUT N a line: what the exact step reads, the shard's
# number).  Every statement ends
# with a semicolon: $(shell) drops the newlines.  A WARC file NAME.warc(.gz)
# is shard NAME, a WET file NAME.warc.wet(.gz) NAME.wet.
define pskd_awk
function fail(msg) {
	printf "pskd.mk: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr";
	bad = 1;
	exit 1;
}
function getname(u,    p, i, c, s, n) {
	p = index(u, "://");
	u = substr(u, p + 3);
	i = match(u, /[?#]/);
	if (i)
		u = substr(u, 1, i - 1);
	i = match(u, /\/[^\/]*$$/);
	s = i ? substr(u, i + 1) : "";
	n = "";
	for (i = 1; i <= length(s) && length(n) < 184; i++) {
		c = substr(s, i, 1);
		if (c !~ /[A-Za-z0-9._+-]/ || (c == "." && n == ""))
			c = "_";
		n = n c;
	}
	if (n == "")
		n = "index";
	else if (n == "manifest.json" || n == "manifest.json.lock" ||
	    n ~ /\.partial$$/ || n ~ /\.partial\.json$$/)
		n = n "_";
	return n;
}
function input(i) {
	return clean ? "clean/" name[i] ".jsonl.zst" : "shards/" name[i] "/" file[i];
}
function source(i) {
	return exact ? "exact/" name[i] ".jsonl.zst" : input(i);
}
function readfile(f,    l, s, r) {
	s = "";
	while ((r = (getline l < f)) > 0)
		s = s l "\n";
	if (r == 0)
		close(f);
	return s;
}
BEGIN { n = 0 }
$$1 == "" || $$1 ~ /^#/ { next }
{
	u = $$1;
	if (u !~ /^[A-Za-z][A-Za-z0-9+.-]*:\/\//) {
		if (base == "")
			fail("not a URL (" u "), and no URLBASE to resolve it");
		u = base (base ~ /\/$$/ ? "" : "/") u;
	}
	if (NF > 3)
		fail("more than URL, SHA256 and SIZE");
	line = u;
	for (i = 2; i <= NF; i++)
		line = line " " $$i;
	f = getname(u);
	s = f;
	sub(/\.(zst|zstd|gz|xz|bz2)$$/, "", s);
	sub(/\.(jsonl|json|ndjson|parquet)$$/, "", s);
	sub(/\.warc$$/, "", s);
	sub(/\.warc\.wet$$/, ".wet", s);
	if (s == "")
		s = f;
	if (s in seen) {
		for (k = 2; (s "-" k) in seen; k++)
			;
		s = s "-" k;
	}
	seen[s] = 1;
	n++;
	name[n] = s;
	file[n] = f;
	lines[n] = line;
}
END {
	if (bad)
		exit 1;
	if (mode == "table") {
		list = "";
		for (i = 1; i <= n; i++) {
			printf "%s/%s/%d/%d\n", name[i], file[i],
			    readfile(dir "/" name[i] ".url") != lines[i] "\n", i - 1;
			list = list name[i] " " source(i) (clean || exact ? " " file[i] : "") "\n";
		}
		if (readfile(dir "/../lists/shards") != list)
			print "lists/shards-stale";
	} else if (mode == "line") {
		for (i = 1; i <= n; i++)
			if (name[i] == want)
				print lines[i];
	} else if (mode == "shards") {
		for (i = 1; i <= n; i++)
			print name[i], source(i) (clean || exact ? " " file[i] : "");
	} else if (mode == "pieces") {
		w = length(pieces - 1);
		for (i = 1; i <= n; i++)
			for (k = 0; k < pieces; k++)
				printf "%s %s %d %d %d\n",
				    pieces == 1 ? name[i] : sprintf("%s.p%0" w "d",
				    name[i], k), source(i), k,
				    pieces, (i - 1) * pieces + k;
	} else if (mode == "exact") {
		for (i = 1; i <= n; i++)
			print name[i], input(i), i - 1;
	}
}

endef
export PSKD_AWK = $(pskd_awk)
pskd_list = awk -v base='$(URLBASE)' -v pieces=$(PIECES) -v clean=$(if \
    $(pskd_clean),1,0) -v exact=$(if $(pskd_exact),1,0) $1 "$$PSKD_AWK" '$(URLS)'

ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
pskd_tab := $(shell awk -v mode=table -v base='$(URLBASE)' \
    -v clean=$(if $(pskd_clean),1,0) -v exact=$(if $(pskd_exact),1,0) \
    -v dir='$(D)/shards' '$(pskd_awk)' \
    '$(URLS)')
ifneq ($(.SHELLSTATUS),0)
$(error pskd.mk: cannot read the shards of URLS = $(URLS))
endif
endif
pskd_part = $(word $2,$(subst /, ,$1))
pskd_rows := $(filter-out lists/shards-stale,$(pskd_tab))
SHARDS    := $(foreach r,$(pskd_rows),$(call pskd_part,$r,1))
$(foreach r,$(pskd_rows),$(eval \
    pskd_file.$(call pskd_part,$r,1) := $(call pskd_part,$r,2))$(eval \
    pskd_index.$(call pskd_part,$r,1) := $(call pskd_part,$r,4)))
pskd_stale := $(foreach r,$(pskd_rows),$(if $(filter 1,$(call \
    pskd_part,$r,3)),$(call pskd_part,$r,1)))
pskd_stale_list := $(filter lists/shards-stale,$(pskd_tab))

pskd_posint = $(if $(shell [ "$1" -ge 1 ] 2>/dev/null && echo y),,$(error \
    pskd.mk: $2 = $1: not a whole number of at least 1))
$(call pskd_posint,$(P),P)$(call pskd_posint,$(PIECES),PIECES)
# Pieces are NAME.pK, K zero-padded to the width of PIECES - 1; with one
# piece a shard, the piece is the shard.
pskd_ks     := $(if $(filter-out 1,$(PIECES)),$(shell seq -w 0 $$(($(PIECES) - 1))))
pskd_pieces  = $(if $(pskd_ks),$(addprefix $1.p,$(pskd_ks)),$1)
pskd_shardof = $(if $(pskd_ks),$(basename $1),$1)
pskd_kof     = $(if $(pskd_ks),$(patsubst .p%,%,$(suffix $1)),0)
PIECES_ALL  := $(foreach s,$(SHARDS),$(call pskd_pieces,$s))
PARTS       := $(shell seq -f %03.0f 0 $$(($(P) - 1)))

VERIFIED = $(SHARDS:%=$(D)/shards/%.verified)
KEPT     = $(SHARDS:%=$(D)/kept/%.jsonl.zst)
TOKENS   = $(SHARDS:%=$(D)/tokens/%.psk.d)

# ---- the commands of each step ----------------------------------------------
# One line each, without single quotes, so that GNU parallel can run them
# on another machine with its own replacement strings as arguments.

pskd_field    = $(if $(FIELD),-f $(FIELD))
pskd_br       = $(if $(BANDS),-b $(BANDS)) $(if $(ROWS),-r $(ROWS))
pskd_brt      = $(pskd_br) $(if $(THRESHOLD),-t $(THRESHOLD))
pskd_tokc     = $(if $(TOKCOMPILE),$(if $(filter %.json,$(TOKENIZER)),$(D)/tokenizer.pskc))
pskd_tokflags = $(if $(ENC),-E $(ENC)) $(if $(TOKENIZER),-v $(or $(pskd_tokc),$(TOKENIZER)))

# $(call pskd_read,FILE,K,N): the documents of piece K (from 0) of N of a
# shard, to the standard output.  Plain JSON Lines are cut at line
# boundaries (split -n l/K/N); a compressed shard at its frames, members,
# blocks or streams (pskd-unzst -s N, then -r for range K), so a piece
# decodes only its own part; a Parquet shard by row groups (pskd-unparquet
# -g K/N).  A compressed file with fewer pieces than N (plain zstd, gzip,
# xz and bzip2 write one) is decompressed whole by every piece instead, and
# cut at line boundaries like a plain file.
# A WARC or WET file (Common Crawl's .warc.gz, .warc.wet.gz; .warc.zst)
# becomes documents through pskd-unwarc, its pieces ranges of records
# (pskd-unwarc -s N, then -r for range K).
pskd_read = case $1 in \
    *.warc|*.warc.gz|*.warc.zst|*.wet|*.wet.gz|*.wet.zst) if [ $3 = 1 ]; then \
        pskd-unwarc -q $(UNWARCFLAGS) $1; else pskd-unwarc -q $(UNWARCFLAGS) -r \
        "$$(pskd-unwarc -s $3 $1 | sed -n "$$((10\#$2 + 1))p")" $1; fi ;; \
    *.parquet) if [ $3 = 1 ]; then pskd-unparquet $1; else \
        pskd-unparquet -g $$((10\#$2))/$3 $1; fi ;; \
    *.jsonl|*.json|*.ndjson) if [ $3 = 1 ]; then cat $1; else \
        split -n l/$$((10\#$2 + 1))/$3 $1; fi ;; \
    *) if [ $3 = 1 ]; then pskd-unzst $1; else \
        rs=$$(pskd-unzst -s $3 $1) && \
        if [ "$$(printf '%s\n' "$$rs" | awk -F- '$$1 != $$2' | wc -l)" = $3 ]; then \
            pskd-unzst -r "$$(printf '%s\n' "$$rs" | sed -n "$$((10\#$2 + 1))p")" $1; \
        else t=$$(mktemp) && trap "rm -f $$t" EXIT && pskd-unzst $1 > $$t && \
            split -n l/$$((10\#$2 + 1))/$3 $$t; fi; fi ;; \
    esac

# $(call pskd_cmd_map,FILE,K,N,SEQ,PREFIX): signatures, then band keys in
# P partitions; SEQ orders the piece among all (list order, then piece).
pskd_cmd_map = { $(call pskd_read,$1,$2,$3); } | \
    pskd-shingle $(pskd_field) $(SHINGLEFLAGS) | pskd-minhash $(MINHASHFLAGS) \
    > $5.sig && pskd-lsh $(pskd_br) --map $(P) -s $4 -o $5 $5.sig

# $(call pskd_cmd_dedup,FILE,NAME,N): shard NAME (its documents in FILE),
# input N of the one index D/index, deduplicated against the shards before
# it into D/kept/NAME.jsonl, .verdicts and .dropped; its run committed when
# the whole pipe succeeded, else rolled back and the command fails.
pskd_cmd_dedup = { { $(call pskd_read,$1,0,1); } | \
    pskd-shingle $(pskd_field) $(SHINGLEFLAGS) | pskd-minhash $(MINHASHFLAGS) | \
    pskd-lsh -q $(pskd_brt) -i $(D)/index -s $3 --verdicts $(D)/kept/$2.verdicts \
        --dropped $(D)/kept/$2.dropped > $(D)/kept/$2.jsonl && \
    pskd-lsh --commit $(D)/index; } || { pskd-lsh --abort $(D)/index; false; }

# $(call pskd_sorted,LIST): the lines of the files named in LIST
# (separated by blanks or newlines), sorted as one.
pskd_sorted = tr " \n" "\0\0" < $1 | LC_ALL=C sort $(SORTFLAGS) --files0-from=-

# $(call pskd_cmd_pairs,LIST,OUT): the candidate pairs of one partition,
# from the key files named in LIST.
pskd_cmd_pairs = $(call pskd_sorted,$1) | pskd-lsh --pairs > $2

# $(call pskd_cmd_apply,PREFIX): the lines the piece's verdicts keep.
pskd_cmd_apply = pskd-lsh --apply $1.verdicts --dropped $1.dropped $1.sig > $1.kept.jsonl

# $(call pskd_cmd_tok,KEPT,OUT): a shard's kept documents to tokens
# (through pskd-redact with REDACT set).
pskd_redact  = $(if $(REDACT),pskd-redact -q $(pskd_field) $(REDACTFLAGS) |)
pskd_cmd_tok = pskd-unzst $1 | $(pskd_redact) pskd-tok -q $(pskd_tokflags) $(pskd_field) $(TOKFLAGS) | \
    pskd-pack -o $2

# $(call pskd_cmd_STAGE,NAME): a document stage of shard NAME (LANG,
# FILTER, DECON): documents in, the kept ones out, its verdicts and
# dropped lines in D/clean/NAME.STAGE.verdicts and .dropped.
pskd_stage_out = --verdicts $(D)/clean/$1.$2.verdicts --dropped $(D)/clean/$1.$2.dropped
pskd_cmd_lang   = pskd-lid -q -m $(LANGMODEL) --keep $(pskd_on.lang) \
    -t $(LANGSCORE) $(pskd_field) $(LANGFLAGS) $(call pskd_stage_out,$1,lang)
pskd_cmd_filter = pskd-filter -q -r $(FILTER) $(pskd_field) $(FILTERFLAGS) \
    $(call pskd_stage_out,$1,filter)
pskd_cmd_decon  = pskd-decon -q $(addprefix -b ,$(DECON)) $(pskd_field) \
    $(DECONFLAGS) $(call pskd_stage_out,$1,decon)

# $(call pskd_cmd_clean,FILE,NAME): shard NAME's documents through the
# stages that are on, into D/clean/NAME.jsonl.zst.
pskd_cmd_clean = { $(call pskd_read,$1,0,1); } | $(foreach st,$(pskd_clean),$(call \
    pskd_cmd_$(st),$2) |) zstd -q -f -1 -o $(D)/clean/$2.jsonl.zst.tmp && \
    mv $(D)/clean/$2.jsonl.zst.tmp $(D)/clean/$2.jsonl.zst

# $(call pskd_cmd_exact,FILE,OUT,N): the exact step of a shard (its
# documents in FILE), input N of the one index D/exact-index, into
# OUT.jsonl.zst, OUT.verdicts and OUT.dropped; its run committed when the
# whole pipe succeeded, else rolled back and the command fails.
pskd_xflags = -g $(pskd_exact) $(pskd_field) $(if $(EXACTNORM),-n $(EXACTNORM))
pskd_xout   = --verdicts $1.verdicts --dropped $1.dropped
pskd_xzst   = zstd -q -f -1 -o $1.jsonl.zst.tmp && mv $1.jsonl.zst.tmp $1.jsonl.zst
pskd_cmd_exact = { { $(call pskd_read,$1,0,1); } | \
    pskd-exact -q $(pskd_xflags) $(EXACTFLAGS) $(call pskd_xout,$2) \
        -i $(D)/exact-index -s $3 | $(call pskd_xzst,$2) && \
    pskd-exact --commit $(D)/exact-index; } || \
    { pskd-exact --abort $(D)/exact-index; false; }

# The exact step as a map-reduce (pskd-exact(1), MAP-REDUCE), the index's
# output bytes.  $(call pskd_cmd_exactmap,FILE,N,PREFIX): shard N's units
# in P partitions, PREFIX.units-PART.  $(call
# pskd_cmd_exactreduce,LIST,OUT): the repeats of one partition, sorted,
# from the unit files named in LIST.  $(call
# pskd_cmd_exactapply,FILE,OUT,N,REPEATS): shard N without its repeats,
# as pskd_cmd_exact writes it.
pskd_cmd_exactmap = { $(call pskd_read,$1,0,1); } | \
    pskd-exact $(pskd_xflags) --map $(P) -s $2 -o $3
pskd_cmd_exactreduce = $(call pskd_sorted,$1) | pskd-exact --reduce | \
    LC_ALL=C sort $(SORTFLAGS) > $2.tmp && mv $2.tmp $2
pskd_cmd_exactapply = { $(call pskd_read,$1,0,1); } | \
    pskd-exact -q $(pskd_xflags) $(EXACTFLAGS) $(call pskd_xout,$2) \
        --apply - -s $3 $4 | $(call pskd_xzst,$2)

# The exact step's settings: what its index and its units depend on.
pskd_xset   = $(strip pskd-exact $(pskd_xflags) $(EXACTFLAGS))

# What the exact step reads: the clean shard when a stage is on, else the
# shard; and what must exist before it is read.  The documents
# deduplication reads: the exact step's when it is on, else the same.
pskd_xsrc   = $(if $(pskd_clean),$(D)/clean/$1.jsonl.zst,$(D)/shards/$1/$(pskd_file.$1))
pskd_xready = $(if $(pskd_clean),$(D)/clean/$1.jsonl.zst,$(D)/shards/$1.verified)
pskd_src    = $(if $(pskd_exact),$(D)/exact/$1.jsonl.zst,$(call pskd_xsrc,$1))
pskd_ready  = $(if $(pskd_exact),$(D)/exact/$1.jsonl.zst,$(call pskd_xready,$1))
XREADY      = $(foreach s,$(SHARDS),$(call pskd_xready,$s))
READY       = $(foreach s,$(SHARDS),$(call pskd_ready,$s))
EXACTKEPT   = $(SHARDS:%=$(D)/exact/%.jsonl.zst)

# $(call pskd_finish,NAME,FILE): D/kept/NAME.jsonl compressed, and its
# counts added to the shard's manifest (pskd-get --annotate).
pskd_finish = zstd -q -f $(ZSTDFLAGS) --rm $(D)/kept/$1.jsonl && \
    pskd-get -d $(D)/shards/$1 --annotate $2 \
        documents=$$(wc -l < $(D)/kept/$1.verdicts) \
        unique_documents=$$(grep -c '	keep$$\|	empty$$' $(D)/kept/$1.verdicts) \
        dedup_sha256=\"$$(sha256sum < $(D)/kept/$1.jsonl.zst | cut -d' ' -f1)\"

# ---- fetch and verify, a shard at a time ------------------------------------

.PHONY: all fetch verify stages exact dedup tokens summary mapreduce lists \
    clean pskd-force
pskd-force: ;

fetch: $(foreach s,$(SHARDS),$(D)/shards/$s/$(pskd_file.$s))
verify: $(VERIFIED)
stages: $(XREADY)
exact: $(READY)
dedup: $(KEPT)
tokens: $(TOKENS)

# Each shard's line of the list, rewritten only when it changed, so an
# edit of one line fetches that shard again and only it.
$(pskd_stale:%=$(D)/shards/%.url): pskd-force
$(D)/shards/%.url:
	@mkdir -p $(@D)
	$(call pskd_list,-v mode=line -v want='$*') > $@.tmp
	mv $@.tmp $@

# pskd-get fetches what is missing (resuming what a killed run left) and
# checks what is there; the gate: nothing goes on from a shard or manifest
# that no longer matches what was fetched.
define pskd_shard_rules
$(D)/shards/$1/$2: $(D)/shards/$1.url
	pskd-get $$(GETFLAGS) -d $(D)/shards/$1 $(D)/shards/$1.url
	[ -f $$@ ] || { echo "pskd.mk: pskd-get did not name the shard $$@" >&2; exit 1; }
	touch $$@
$(D)/shards/$1.verified: $(D)/shards/$1/$2
	pskd-get --verify -d $(D)/shards/$1
	touch $$@
$(patsubst %,$(MR)/%.keys,$(call pskd_pieces,$1)): $(call pskd_ready,$1)
$(XR)/$1.units: $(call pskd_xready,$1) $(if $(pskd_exact),$(D)/lists/exact-settings)
endef
$(foreach s,$(SHARDS),$(eval $(call pskd_shard_rules,$s,$(pskd_file.$s))))

# ---- the document stages, a shard at a time ---------------------------------
# With LANG, FILTER or DECON set, each shard's documents go through those
# stages in that order (pskd-lid, pskd-filter, pskd-decon), each keeping a
# document byte for byte or dropping it with a verdict, into
# D/clean/NAME.jsonl.zst, which deduplication then reads instead of the
# shard.  Shards are independent here: make -j runs them side by side.
define pskd_clean_rule
$(D)/clean/$1.jsonl.zst: $(D)/shards/$1.verified
	@mkdir -p $(D)/clean
	$$(call pskd_cmd_clean,$(D)/shards/$1/$2,$1)
endef
$(if $(pskd_clean),$(foreach s,$(SHARDS),$(eval $(call \
    pskd_clean_rule,$s,$(pskd_file.$s)))))

$(D)/lists:
	mkdir -p $@
$(D)/lists/shards: $(if $(pskd_stale_list),pskd-force) | $(D)/lists
	$(call pskd_list,-v mode=shards) > $@.tmp
	mv $@.tmp $@
lists: $(D)/lists/shards $(if $(pskd_exact),$(D)/lists/exact-settings)
	$(call pskd_list,-v mode=pieces) > $(D)/lists/pieces.tmp
	mv $(D)/lists/pieces.tmp $(D)/lists/pieces
	printf '%s\n' $(PARTS) > $(D)/lists/parts
	printf '%s\n' $(pskd_clean) > $(D)/lists/stages
	$(if $(pskd_exact),$(call pskd_list,-v mode=exact),:) > $(D)/lists/exact.tmp
	mv $(D)/lists/exact.tmp $(D)/lists/exact

# ---- the exact step ---------------------------------------------------------
# With EXACT set, pskd-exact deduplicates exactly across all shards, after
# the document stages and before near-duplicate deduplication, which then
# reads D/exact/NAME.jsonl.zst.  (Decontamination comes before it, with
# the other per-shard stages that run side by side before this one
# sequential step, and so that a document dropped for a benchmark leak
# never makes a later document's unit a repeat.)  At the grain doc a document whose text
# (normalised, EXACTNORM) came before, in this shard or an earlier one, is
# dropped; at para, line and span:N the repeated units are cut out and a
# document left too short is dropped.  Verdicts (keep, empty, trimmed
# BYTES UNITS, exact_duplicate, exact_too_short) and dropped lines go to
# D/exact/NAME.verdicts and .dropped.  A unit is a repeat of one in any
# earlier shard, so the step runs in list order: with DEDUP=index, one
# index D/exact-index, kept as the dedup index is (below): shard N of the
# list is input N (pskd-exact -s N), a run committed only when its pipe
# succeeded (else aborted: the index is as it was), D/exact-index.sha256
# holding the settings and the shards the index holds, so a shard that
# changed, a new order or other settings make the index again, and a shard
# run again gets the verdicts it had.  With DEDUP=mapreduce, the
# map-reduce of pskd-exact(1) in XR (D/xr-P): per shard, its units in P
# partitions; per partition, sorted, the repeats; per shard, the
# documents without their repeats: the same bytes.  (A shard is one map,
# whatever PIECES.)
ifneq ($(pskd_exact),)
# D/lists/exact-settings, rewritten when the settings change, so that
# the step runs again then.
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
pskd_xstale := $(shell [ "$$(cat '$(D)/lists/exact-settings' 2> /dev/null)" = \
    '$(pskd_xset)' ] || echo stale)
endif
$(D)/lists/exact-settings: $(if $(pskd_xstale),pskd-force) | $(D)/lists
	echo '$(pskd_xset)' > $@.tmp
	mv $@.tmp $@
ifeq ($(DEDUP),index)
$(EXACTKEPT): $(D)/exact/done ;
$(D)/exact/done: $(XREADY) $(D)/lists/shards $(D)/lists/exact-settings
	rm -rf $(D)/exact
	mkdir -p $(D)/exact
	$(call pskd_list,-v mode=exact) > $(D)/exact/inputs
	{ cat $(D)/lists/exact-settings; while read -r s f n; do \
	    sha256sum < $(D)/$$f; done < $(D)/exact/inputs; } > $(D)/exact/inputs.sha256
	[ -f $(D)/exact-index.sha256 ] && n=$$(wc -l < $(D)/exact-index.sha256) && \
	    head -n "$$n" $(D)/exact/inputs.sha256 | cmp -s - $(D)/exact-index.sha256 && \
	    { [ ! -f $(D)/exact-index/manifest ] || head -n 1 $(D)/exact-index/manifest | \
	        grep -qx 'pskd-exact index 1'; } || \
	    { rm -rf $(D)/exact-index; head -n 1 $(D)/exact/inputs.sha256 > \
	        $(D)/exact-index.sha256; }
	while read -r s f n; do \
	    [ "$$((n + 1))" -lt "$$(wc -l < $(D)/exact-index.sha256)" ] || \
	        sed -n "$$((n + 2))p" $(D)/exact/inputs.sha256 >> $(D)/exact-index.sha256; \
	    $(call pskd_cmd_exact,$(D)/$$f,$(D)/exact/$$s,$$n) || { \
	        head -n "$$((n + 1))" $(D)/exact-index.sha256 > $(D)/exact-index.sha256.tmp; \
	        mv $(D)/exact-index.sha256.tmp $(D)/exact-index.sha256; exit 1; }; \
	done < $(D)/exact/inputs
	rm $(D)/exact/inputs $(D)/exact/inputs.sha256
	touch $@
	touch -r $@ $(EXACTKEPT)
else
define pskd_exact_rule
$(D)/exact/$1.jsonl.zst: $(PARTS:%=$(XR)/repeats-%) $(D)/lists/exact-settings
	@mkdir -p $(D)/exact
	$$(call pskd_cmd_exactapply,$(call pskd_xsrc,$1),$(D)/exact/$1,$(pskd_index.$1),$(PARTS:%=$(XR)/repeats-%))
endef
$(foreach s,$(SHARDS),$(eval $(call pskd_exact_rule,$s)))
endif
endif

$(XR)/%.units:
	$(if $(pskd_exact),,$(error pskd.mk: no exact step: EXACT is not set))
	$(if $(pskd_file.$*),,$(error pskd.mk: no shard $* in $(URLS)))
	@mkdir -p $(@D)
	$(call pskd_cmd_exactmap,$(call pskd_xsrc,$*),$(pskd_index.$*),$(XR)/$*)
	touch $@

$(XR)/repeats-%: $(SHARDS:%=$(XR)/%.units) | $(D)/lists
	$(file >$(D)/lists/units-$*,$(SHARDS:%=$(XR)/%.units-$*))
	$(call pskd_cmd_exactreduce,$(D)/lists/units-$*,$@)

# ---- deduplication ------------------------------------------------------------

ifeq ($(DEDUP),index)
# One index shared by all shards, in list order: a document is dropped only
# as a near-duplicate of a kept one seen earlier, here or in an earlier
# shard.  The index depends on every shard before it, so the step runs from
# the first shard whenever one changes.  Shard N of the list is input N of
# the index (pskd-lsh -s N): a shard it holds runs again and gets the
# verdicts it had (pskd-lsh(1), RUNNING A SHARD AGAIN), so the index is kept
# while the shards it holds, listed in D/index.sha256, are byte for byte
# the first ones of the list; a shard that changed, or a new order, needs a
# new index.  Each shard's run is committed only when its whole pipe
# succeeded, else rolled back (COMMITTING A RUN): a shard that fails to
# decode leaves the index exactly as it was.  index.sha256 gets a shard's
# line before its commit, so it never lists fewer shards than the index
# holds; an index of an older format (an older pskd-lsh's) is made again.
# The kept files are given done's time, so that make sees them up to date.
$(KEPT): $(D)/kept/done ;
$(D)/kept/done: $(READY) $(D)/lists/shards
	rm -rf $(D)/kept
	mkdir -p $(D)/kept
	while read -r s f o; do sha256sum < $(D)/$$f; done < $(D)/lists/shards \
	    > $(D)/kept/shards.sha256
	[ -f $(D)/index.sha256 ] && n=$$(wc -l < $(D)/index.sha256) && \
	    head -n "$$n" $(D)/kept/shards.sha256 | cmp -s - $(D)/index.sha256 && \
	    { [ ! -f $(D)/index/manifest ] || head -n 1 $(D)/index/manifest | \
	        grep -qx 'pskd-lsh index 4'; } || \
	    rm -rf $(D)/index $(D)/index.sha256
	n=0; while read -r s f o; do \
	    [ "$$n" -lt "$$(cat $(D)/index.sha256 2> /dev/null | wc -l)" ] || \
	        sed -n "$$((n + 1))p" $(D)/kept/shards.sha256 >> $(D)/index.sha256; \
	    $(call pskd_cmd_dedup,$(D)/$$f,$$s,$$n) || { \
	        head -n "$$n" $(D)/index.sha256 > $(D)/index.sha256.tmp; \
	        mv $(D)/index.sha256.tmp $(D)/index.sha256; exit 1; }; \
	    $(call pskd_finish,$$s,$${o:-$${f##*/}}); \
	    n=$$((n + 1)); \
	done < $(D)/lists/shards
	rm $(D)/kept/shards.sha256
	touch $@
	touch -r $@ $(KEPT)
else ifeq ($(DEDUP),mapreduce)
# Kept lines, verdicts and tombstones of a shard: its pieces' in order.
define pskd_kept_rule
$(D)/kept/$1.jsonl.zst: $(foreach p,$(call pskd_pieces,$1),$(MR)/$p.kept.jsonl)
	@mkdir -p $(D)/kept
	cat $(foreach p,$(call pskd_pieces,$1),$(MR)/$p.verdicts) > $(D)/kept/$1.verdicts
	cat $(foreach p,$(call pskd_pieces,$1),$(MR)/$p.dropped) > $(D)/kept/$1.dropped
	cat $$^ > $(D)/kept/$1.jsonl
	$$(call pskd_finish,$1,$2)
endef
$(foreach s,$(SHARDS),$(eval $(call pskd_kept_rule,$s,$(pskd_file.$s))))
else
$(error pskd.mk: DEDUP = $(DEDUP): index or mapreduce)
endif

# The map-reduce (pskd-lsh(1), MAP-REDUCE), the same verdicts as the index:
# per piece, signatures and band keys partitioned by hash into P files;
# per partition, sort and find candidate pairs; once, cluster with the
# index's rule; per piece, keep what the verdicts keep.
mapreduce: $(PIECES_ALL:%=$(MR)/%.kept.jsonl)

$(MR)/%.keys:
	$(if $(pskd_file.$(call pskd_shardof,$*)),,$(error pskd.mk: no piece $* in $(URLS)))
	@mkdir -p $(@D)
	$(call pskd_cmd_map,$(call pskd_src,$(call pskd_shardof,$*)),$(call pskd_kof,$*),$(PIECES),$$(($(pskd_index.$(call \
	    pskd_shardof,$*)) * $(PIECES) + 10#$(call pskd_kof,$*))),$(MR)/$*)
	touch $@

$(MR)/pairs-%: $(PIECES_ALL:%=$(MR)/%.keys) | $(D)/lists
	$(file >$(D)/lists/keys-$*,$(PIECES_ALL:%=$(MR)/%.keys-$*))
	$(call pskd_cmd_pairs,$(D)/lists/keys-$*,$@)

$(MR)/clustered: $(PARTS:%=$(MR)/pairs-%) | $(D)/lists
	$(file >$(D)/lists/prefixes,$(PIECES_ALL:%=$(MR)/%))
	mapfile -t a < <(tr ' ' '\n' < $(D)/lists/prefixes); \
	LC_ALL=C sort -u $(SORTFLAGS) $(PARTS:%=$(MR)/pairs-%) | \
	    pskd-lsh -q $(pskd_brt) --cluster "$${a[@]}"
	touch $@

$(MR)/%.kept.jsonl: $(MR)/clustered
	$(call pskd_cmd_apply,$(MR)/$*)

# ---- tokens, windows, the training set ----------------------------------------

$(D)/tokens/%.psk.d: $(D)/kept/%.jsonl.zst $(pskd_tokc)
	@mkdir -p $(@D)
	$(call pskd_cmd_tok,$<,$@)

# The tokenizer.json compiled once for all shards (pskd-tok(1), Compiled
# tokenizers); -o writes it whole or not at all, so shards that make it at
# once on several machines each leave the same complete file.
$(D)/tokenizer.pskc: $(TOKENIZER)
	@mkdir -p $(@D)
	pskd-tok --compile -v $< -o $@

# One stream of all shards' tokens in list order, cut into windows of T
# tokens with their targets, in one .psk.d file.
$(OUT): $(TOKENS) | $(D)/lists
	$(file >$(D)/lists/tokens,$(TOKENS))
	mapfile -t a < <(tr ' ' '\n' < $(D)/lists/tokens); \
	pskd-pack "$${a[@]}" | pskd-window -t $(T) -s $(S) | pskd-pack -o $@

# A shuffled preview: the first window of epoch 1, decoded back to text.
$(D)/preview.txt: $(OUT)
	pskd-shuffle -s $(SEED) -e 1 -n 1 $(OUT) | pskd-info > $@.tmp
	echo "decoded input:" >> $@.tmp
	v=$$(pskd-info -n 0 $(OUT) | sed -n 's/^type: (idx\[\([0-9]*\)\].*/\1/p'); \
	pskd-shuffle -s $(SEED) -e 1 -n 1 $(OUT) | pskd-info -s | \
	    sed 's/^\[\[//; s/\],.*//' | tr , '\n' | pskd-pack -t "idx[$$v]" | \
	    pskd-tok -d $(pskd_tokflags) >> $@.tmp
	echo >> $@.tmp
	mv $@.tmp $@

# The exact step's line: documents dropped, trimmed and the bytes cut.
pskd_xsummary = cat $(D)/exact/*.verdicts | awk -F'\t' '$$2 == "trimmed" \
    { t++; b += $$3; next } $$2 != "keep" && $$2 != "empty" { n++ } END { \
    printf "%-18s%d dropped, %d trimmed of %d bytes (verdicts in %s)\n", \
    "exact ($(pskd_exact)):", n, t, b, "$(D)/exact/*.verdicts" }'

# The verdicts of the first step that saw every document.
pskd_allv = $(if $(pskd_clean),$(D)/clean/*.$(firstword $(pskd_clean)).verdicts,$(if \
    $(pskd_exact),$(D)/exact/*.verdicts,$(D)/kept/*.verdicts))

summary: $(OUT) $(D)/preview.txt
	@docs=$$(cat $(pskd_allv) | wc -l); \
	dups=$$(cat $(D)/kept/*.verdicts | grep -c '	near_duplicate	' || true); \
	toks=$$(for f in $(D)/tokens/*.psk.d; do pskd-info -n 0 $$f; done | \
	    sed -n 's/^count: //p' | awk '{ n += $$1 } END { print n }'); \
	samples=$$(pskd-info -n 0 $(OUT) | sed -n 's/^count: //p'); \
	echo "documents:        $$docs in $(words $(SHARDS)) shards"; \
	for st in $(pskd_clean); do \
	    n=$$(cat $(D)/clean/*.$$st.verdicts | grep -vc '	keep$$' || true); \
	    printf '%-18s%s dropped (verdicts in %s)\n' "$$st:" "$$n" \
	        "$(D)/clean/*.$$st.verdicts"; done; \
	$(if $(pskd_exact),$(pskd_xsummary);) \
	echo "near-duplicates:  $$dups dropped (verdicts in $(D)/kept/*.verdicts)"; \
	echo "tokens:           $$toks ($(or $(ENC),$(TOKENIZER)))"; \
	echo "samples:          $$samples windows of $(T) tokens in $(OUT)"; \
	echo "first shuffled sample (seed $(SEED), epoch 1), decoded:"; \
	sed '1,/^decoded input:/d' $(D)/preview.txt | \
	    fold -s -w 76 | head -8 | sed 's/^/    /'

# ---- one step of one item, for a scheduler ------------------------------------
# Each makes its inputs first when they are missing or out of date, so
# the steps are the rules above; a scheduler runs them in this order.
pskd-step-fetch-%: $(D)/shards/%.verified ;
pskd-step-clean-%: $(if $(pskd_clean),$(D)/clean/%.jsonl.zst,$(D)/shards/%.verified) ;
pskd-step-exactmap-%: $(XR)/%.units ;
pskd-step-exactreduce-%: $(XR)/repeats-% ;
pskd-step-exact-%: $(if $(pskd_exact),$(D)/exact/%.jsonl.zst,$(if \
    $(pskd_clean),$(D)/clean/%.jsonl.zst,$(D)/shards/%.verified)) ;
pskd-step-map-%: $(MR)/%.keys ;
pskd-step-pairs-%: $(MR)/pairs-% ;
pskd-step-cluster: $(MR)/clustered ;
pskd-step-apply-%: $(D)/kept/%.jsonl.zst ;
pskd-step-tok-%: $(D)/tokens/%.psk.d ;
pskd-step-pack: $(OUT) $(D)/preview.txt ;

clean:
	rm -rf $(D) $(OUT)
