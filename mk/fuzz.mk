# ---- libFuzzer targets, one per file of fuzz/, on the core built with
# clang's coverage, ASan and UBSan; `make fuzz` (and `make test`, through
# fuzz/run.sh) runs each for FUZZ_SECONDS (set below) on seeds taken from testdata/
# (build/fuzz/corpus, not committed).
FUZZ_CC      ?= clang
# Per target: 16 targets at 16 s, one per core at a time (FUZZ_JOBS, whose
# default fuzz/run.sh sets), keep the stage at about 2.5 minutes on CI's
# two cores.
FUZZ_SECONDS ?= 16
FUZZ_TARGETS = ulid_decode uuid_decode relative_decode snowflake_decode snowflake_layout ksuid_decode short_uuid_decode objectid_decode xid_decode \
               typeid_decode traceparent_decode nanoid roundtrip generators cuid2 sqids_decode
FUZZ_FLAGS   = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_OBJ     = $(CORE_SRC:src/%.c=$(BUILD)/fuzz/core/%.o)
FUZZ_BINS    = $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)
FUZZ_SEEDED  = $(BUILD)/fuzz/corpus/.seeded
TEST_DEPS   += $(FUZZ_BINS) $(FUZZ_SEEDED)
export FUZZ_SECONDS FUZZ_TARGETS FUZZ_JOBS
.PHONY: fuzz
.SECONDARY: $(FUZZ_OBJ)

$(eval $(call compile_objects,fuzz/core,$$(FUZZ_CC) $$(WARN) $$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,$(CORE_HDR)))

$(FUZZ_BINS): $(BUILD)/fuzz/%: fuzz/%.c fuzz/fuzz.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -Isrc -o $@ $< $(FUZZ_OBJ) $(LDLIBS)

$(FUZZ_SEEDED): fuzz/seed_corpus.py $(wildcard testdata/*.txt)
	python3 fuzz/seed_corpus.py testdata $(BUILD)/fuzz/corpus
	@touch $@

fuzz: $(FUZZ_BINS) $(FUZZ_SEEDED)
	BUILD='$(BUILD)' sh fuzz/run.sh
