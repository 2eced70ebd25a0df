# ---- native tests of the C core (spec/native/test_*.c, TAP, no busted):
# test_core: SHA-256/HMAC and ChaCha20 vectors; test_default: the default
# generators from threads and fork(); test_wipe embeds Lua and #includes the
# binding to read a relative generator's bytes after __gc and __close;
# test_random (and _urandom, the core built without getrandom): the OS
# source's fallbacks through link-time fakes of getrandom, open and read;
# test_default_clone: the fork tests with children made by raw clone (no
# pthread_atfork handler runs: the MADV_WIPEONFORK sentinel must see them);
# test_default_atfork: with the sentinel compiled out (atfork alone);
# test_frozen_clock: the Snowflake wait on a wall clock that stands still,
# under the frozen_clock.so shim (the test preloads it itself); test_fence:
# the lease fence of a Snowflake generator through the ABI alone;
# test_wall_clock: the wall clock's ms, the core's clock_gettime calls
# counted and stepped by the test's own (--wrap), and no rdtsc in the core;
# test_chacha_registers: no keystream left in the vector registers after a
# refill (x86-64).
NATIVE_TESTS = core default wipe random random_urandom default_clone default_atfork frozen_clock fence wall_clock \
               chacha_registers
# The ones `make test-fast` runs.
FAST_NATIVE  = core default wipe fence wall_clock chacha_registers
NATIVE_EXES += $(NATIVE_TESTS:%=$(BUILD)/test_%)
TEST_DEPS   += $(NATIVE_EXES)
RUN_ENV     += NATIVE_EXES='$(NATIVE_EXES)'
.SECONDARY: $(CORE_OBJ)

$(BUILD)/test_%: spec/native/test_%.c spec/native/tap.h $(CORE_OBJ)
	$(CC) $(WARN) $(CFLAGS) -Isrc -o $@ $< $(CORE_OBJ) $(TEST_LUA) $(LDLIBS) $(TEST_WRAP)

# test_default brings its own wall clock (a clock it can stop, so that
# forked children mint in their parent's millisecond), in every variant:
# the core's calls of mintid_os_clock_ms go to its __wrap_ one.
TEST_DEFAULTS = $(BUILD)/test_default $(BUILD)/asan/test_default $(BUILD)/test_default_clone \
                $(BUILD)/test_default_atfork
$(TEST_DEFAULTS): TEST_WRAP = -Wl,--wrap=mintid_os_clock_ms
$(BUILD)/test_wall_clock: TEST_WRAP = -Wl,--wrap=clock_gettime

# test_wipe (plain and sanitized) embeds Lua $(SAN_LUA) and #includes the binding.
WIPE_TESTS = $(BUILD)/test_wipe $(BUILD)/asan/test_wipe
$(WIPE_TESTS): TEST_LUA = -I$(call lua_incdir,$(SAN_LUA)) -llua$(SAN_LUA)
$(WIPE_TESTS): $(BIND_SRC) $(BIND_HDR)

$(BUILD)/frozen_clock.so: spec/native/frozen_clock.c
	$(CC) $(WARN) $(CFLAGS) -fPIC -shared -o $@ $< -ldl
$(BUILD)/test_frozen_clock: $(BUILD)/frozen_clock.so

# The platform layer's variants: os_posix.c compiled without getrandom, or
# without the fork sentinel.
CORE_OBJ_BUT_OS = $(filter-out $(BUILD)/core/os_posix.o,$(CORE_OBJ))
WRAP_OS = -Wl,--wrap=getrandom,--wrap=open,--wrap=read
$(eval $(call compile_objects,variant/nogetrandom,$$(CC) $$(ALL_CFLAGS) -DMINTID_NO_GETRANDOM,$(CORE_HDR)))
$(eval $(call compile_objects,variant/nowipe,$$(CC) $$(ALL_CFLAGS) -DMINTID_NO_WIPEONFORK,$(CORE_HDR)))
$(BUILD)/test_random: spec/native/test_random.c spec/native/tap.h $(CORE_OBJ)
	$(CC) $(WARN) $(CFLAGS) -Isrc -o $@ $< $(CORE_OBJ) $(LDLIBS) $(WRAP_OS)
$(BUILD)/test_random_urandom: spec/native/test_random.c spec/native/tap.h $(CORE_OBJ_BUT_OS) $(BUILD)/variant/nogetrandom/os_posix.o
	$(CC) $(WARN) $(CFLAGS) -DMINTID_NO_GETRANDOM -Isrc -o $@ $< $(filter %.o,$^) $(LDLIBS) $(WRAP_OS)
$(BUILD)/test_default_clone: spec/native/test_default.c spec/native/tap.h $(CORE_OBJ)
	$(CC) $(WARN) $(CFLAGS) -DTEST_RAW_CLONE -Isrc -o $@ $< $(CORE_OBJ) $(LDLIBS) $(TEST_WRAP)
$(BUILD)/test_default_atfork: spec/native/test_default.c spec/native/tap.h $(CORE_OBJ_BUT_OS) $(BUILD)/variant/nowipe/os_posix.o
	$(CC) $(WARN) $(CFLAGS) -Isrc -o $@ $< $(filter %.o,$^) $(LDLIBS) $(TEST_WRAP)
