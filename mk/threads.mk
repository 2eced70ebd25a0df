# ---- threads (issue: scale with threads): the threads bench and the
# thread tests. Included by the Makefile; spec/threads.sh (make
# test-threads, and a stage of spec/run.sh) runs the tests.

# bench/threads.c: one Lua 5.4 state per OS thread on build/5.4/mintid.so,
# and the C ABI alone on the core objects linked in.
$(BUILD)/bench_threads: bench/threads.c $(CORE_OBJ) $(CORE_HDR)
	$(CC) $(WARN) $(CFLAGS) -Isrc -I$(call lua_incdir,5.4) -o $@ $< $(CORE_OBJ) -llua5.4 $(LDLIBS)
bench-threads: $(BUILD)/5.4/mintid.so $(BUILD)/bench_threads
	$(BUILD)/bench_threads $(BUILD)/5.4
.PHONY: bench-threads
bench: $(BUILD)/bench_threads

# test_threads (the Makefile's test_% rule): strict increase across 8
# threads whose clocks disagree, threads that fork while others mint, a
# thread's generator gone with it. Its clock is its own (--wrap).
$(BUILD)/test_threads: TEST_WRAP = -Wl,--wrap=mintid_os_clock_ms

# ThreadSanitizer (clang): the core and every native test that runs
# threads: test_threads, test_default (threads and fork), test_vectors
# (the defaults from 4 threads), examples/embed/host.c (two Lua states).
TSAN_CC    ?= clang
TSAN_FLAGS  = -g -O1 -fno-omit-frame-pointer -fsanitize=thread
TSAN_OBJ    = $(CORE_SRC:src/%.c=$(BUILD)/tsan/core/%.o)
TSAN_TESTS  = $(BUILD)/tsan/test_threads $(BUILD)/tsan/test_default $(BUILD)/tsan/test_vectors $(BUILD)/tsan/host
TSAN_WRAP   = -Wl,--wrap=mintid_os_clock_ms
.SECONDARY: $(TSAN_OBJ)
$(eval $(call compile_objects,tsan/core,$$(TSAN_CC) $$(WARN) $$(TSAN_FLAGS),$(CORE_HDR)))
$(BUILD)/tsan/test_threads $(BUILD)/tsan/test_default: $(BUILD)/tsan/test_%: spec/native/test_%.c spec/native/tap.h $(TSAN_OBJ)
	$(TSAN_CC) $(WARN) $(TSAN_FLAGS) -Isrc -o $@ $< $(TSAN_OBJ) $(LDLIBS) $(TSAN_WRAP)
$(BUILD)/tsan/test_vectors: spec/native/test_vectors.c spec/native/tap.h $(TSAN_OBJ)
	$(TSAN_CC) $(WARN) $(TSAN_FLAGS) -Isrc -o $@ $< $(TSAN_OBJ) $(LDLIBS)
$(BUILD)/tsan/host: examples/embed/host.c $(BIND_SRC) $(BIND_HDR) $(TSAN_OBJ)
	$(TSAN_CC) $(WARN) $(TSAN_FLAGS) -I$(call lua_incdir,5.4) -o $@ $< $(BIND_SRC) $(TSAN_OBJ) -llua5.4 $(LDLIBS)

# The plain test, the TSan ones, and test_threads under helgrind.
test-threads: $(BUILD)/test_threads $(TSAN_TESTS)
	BUILD='$(BUILD)' sh spec/threads.sh
.PHONY: test-threads
TEST_DEPS += $(BUILD)/test_threads $(TSAN_TESTS)
$(BUILD)/test_threads $(TEST_DEFAULTS) $(BUILD)/tsan/test_threads $(BUILD)/tsan/test_default: spec/native/child.h
