# mintid: `make` builds the Lua module, `make demo` shows every kind,
# `make test` runs the whole suite, `make bench` prints timings (and, under
# LuaJIT, the FFI binding against the C API).

LUA_VERSION ?= 5.4
LUA         ?= $(call lua_cmd,$(LUA_VERSION))
# Lua versions `make test` runs the busted suite under (installed by .ci/run);
# "jit" is LuaJIT.
TEST_LUAS   ?= 5.4 5.3 5.2 5.1 jit
# Headers of each version (Debian's layout); override LUA_INCDIR for one build.
lua_incdir = $(or $(LUA_INCDIR),$(if $(filter jit,$1),/usr/include/luajit-2.1,/usr/include/lua$1))
lua_cmd = $(if $(filter jit,$1),luajit,lua$1)

CC      ?= cc
CFLAGS  ?= -O2 -g
# -Werror only where the project checks itself (make test, hence CI): a
# user's plain `make` with another compiler should not fail on a new warning.
WERROR  ?=
WARN     = -std=c99 -pedantic -Wall -Wextra $(WERROR) -Wmissing-prototypes -Wstrict-prototypes -Wshadow
ALL_CFLAGS = $(WARN) -fPIC $(CFLAGS)
LDLIBS  = -pthread
# How a Lua module links: macOS loads it as a bundle whose Lua symbols
# resolve in the host program (built by reading only; gmake on the BSDs).
MODULE_LDFLAGS := $(if $(filter Darwin,$(shell uname -s)),-bundle -undefined dynamic_lookup,-shared)

CORE_SRC = src/error.c src/base32.c src/monotonic.c src/ulid.c src/uuid.c \
           src/sha256.c src/relative.c src/snowflake.c src/nanoid.c \
           src/chacha20.c src/random.c src/default.c src/abi.c \
           src/os_posix.c src/os_win32.c
CORE_HDR = src/mintid.h src/internal.h
BIND_SRC = src/lua_mintid.c
BIND_HDR = src/lua_compat.h

BUILD   = build
MODULE  = $(BUILD)/$(LUA_VERSION)/mintid.so
CORE_OBJ = $(CORE_SRC:src/%.c=$(BUILD)/core/%.o)

.PHONY: all deps demo test test-alloc test-nginx bench install clean vectors check-vectors lint dist print-sources windows-module cdef

# Debian packages that the build and every suite of `make test` need.
DEB_PACKAGES = build-essential ca-certificates python3 valgrind lua-busted luarocks \
    lua5.4 liblua5.4-dev lua5.3 liblua5.3-dev lua5.2 liblua5.2-dev \
    lua5.1 liblua5.1-0-dev luajit2 libluajit2-5.1-dev \
    nginx libnginx-mod-http-lua libnginx-mod-http-ndk lua-resty-core lua-resty-lrucache \
    wrk curl
# lint, the database specs and the release rock (make lint, make dist)
DEB_PACKAGES += lua-check lua-sql-sqlite3 lua-sql-postgres postgresql sqlite3 git zip unzip
# cross toolchains, qemu-user and wine for every platform (make test-<target>)
DEB_PACKAGES += gcc-i686-linux-gnu musl-tools gcc-mips-linux-gnu gcc-arm-linux-gnueabihf \
    gcc-mingw-w64-x86-64 qemu-user wine wine64 gcc-s390x-linux-gnu

all: $(MODULE)

$(BUILD)/core/%.o: src/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/%/mintid.so: $(BIND_SRC) $(BIND_HDR) $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(call lua_incdir,$*) $(MODULE_LDFLAGS) -o $@ $(BIND_SRC) $(CORE_OBJ) $(LDLIBS)

# testfork, a module for spec/11-fork_spec.lua only (fork from Lua), next to
# each build of the module so the suite's LUA_CPATH finds it.
$(BUILD)/%/testfork.so: spec/native/testfork.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(call lua_incdir,$(if $(filter asan,$*),5.4,$*)) $(MODULE_LDFLAGS) -o $@ $<

# Native tests of the core: vectors of SHA-256/HMAC, threads and fork; and
# test_wipe, which embeds Lua 5.4 and #includes the binding to read a
# relative generator's bytes after __gc and __close.
NATIVE_TESTS = $(BUILD)/test_core $(BUILD)/test_default $(BUILD)/test_wipe
.SECONDARY: $(CORE_OBJ)
$(BUILD)/test_%: spec/native/test_%.c spec/native/tap.h $(CORE_OBJ)
	$(CC) $(WARN) $(CFLAGS) -Isrc -o $@ $< $(CORE_OBJ) $(TEST_LUA) $(LDLIBS) $(TEST_WRAP)

# test_default brings its own wall clock (a clock it can stop, so that
# forked children mint in their parent's millisecond), in every variant:
# the core's calls of mintid_os_clock_ms go to its __wrap_ one.
TEST_DEFAULTS = $(BUILD)/test_default $(BUILD)/asan/test_default $(BUILD)/test_default_clone \
                $(BUILD)/test_default_atfork
$(TEST_DEFAULTS): TEST_WRAP = -Wl,--wrap=mintid_os_clock_ms

# test_wipe (plain and sanitized) embeds Lua 5.4 and #includes the binding.
WIPE_TESTS = $(BUILD)/test_wipe $(BUILD)/asan/test_wipe
$(WIPE_TESTS): TEST_LUA = -I$(call lua_incdir,5.4) -llua5.4
$(WIPE_TESTS): $(BIND_SRC) $(BIND_HDR)

# The same module and native tests with AddressSanitizer and UBSan; make test
# runs the Lua 5.4 suite on it (libasan preloaded) and the native tests.
SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_OBJ = $(CORE_SRC:src/%.c=$(BUILD)/asan/core/%.o)
SAN_TESTS = $(BUILD)/asan/test_core $(BUILD)/asan/test_default $(BUILD)/asan/test_wipe
.SECONDARY: $(SAN_OBJ)

$(BUILD)/asan/core/%.o: src/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -c -o $@ $<

$(BUILD)/asan/mintid.so: $(BIND_SRC) $(BIND_HDR) $(SAN_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -I$(call lua_incdir,5.4) -shared -o $@ $(BIND_SRC) $(SAN_OBJ) $(LDLIBS)

$(BUILD)/asan/test_%: spec/native/test_%.c spec/native/tap.h $(SAN_OBJ)
	$(CC) $(WARN) $(CFLAGS) $(SAN_FLAGS) -Isrc -o $@ $< $(SAN_OBJ) $(TEST_LUA) $(LDLIBS) $(TEST_WRAP)

# Out-of-memory runs (spec/native/test_alloc.c) for Lua 5.4 and 5.1, under
# ASan/UBSan and LeakSanitizer; `make test` runs them through spec/run.sh.
ALLOC_LUAS = 5.4 5.1
ALLOC_TESTS = $(ALLOC_LUAS:%=$(BUILD)/asan/test_alloc-%)
$(BUILD)/asan/test_alloc-%: spec/native/test_alloc.c spec/native/tap.h $(BIND_SRC) $(BIND_HDR) $(SAN_OBJ)
	$(CC) $(WARN) $(CFLAGS) $(SAN_FLAGS) -Isrc -I$(call lua_incdir,$*) -o $@ $< $(SAN_OBJ) -llua$* $(LDLIBS)

test-alloc: $(ALLOC_TESTS)
	@for t in $(ALLOC_TESTS); do ASAN_OPTIONS=detect_leaks=1 $$t || exit 1; done

# libFuzzer targets, one per file of fuzz/, on the core built with clang's
# coverage, ASan and UBSan; `make fuzz` runs each for FUZZ_SECONDS on seeds
# taken from testdata/ (build/fuzz/corpus, not committed). libFuzzer's
# runtime is libclang-rt-dev, which clang only recommends.
DEB_PACKAGES += clang libclang-rt-dev
.PHONY: fuzz
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 30
FUZZ_TARGETS = ulid_decode uuid_decode relative_decode snowflake_decode nanoid roundtrip generators
FUZZ_FLAGS   = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_OBJ     = $(CORE_SRC:src/%.c=$(BUILD)/fuzz/core/%.o)
FUZZ_BINS    = $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)
.SECONDARY: $(FUZZ_OBJ)

$(BUILD)/fuzz/core/%.o: src/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BINS): $(BUILD)/fuzz/%: fuzz/%.c fuzz/fuzz.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -Isrc -o $@ $< $(FUZZ_OBJ) $(LDLIBS)

$(BUILD)/fuzz/corpus/.seeded: fuzz/seed_corpus.py $(wildcard testdata/*.txt)
	python3 fuzz/seed_corpus.py testdata $(BUILD)/fuzz/corpus
	@touch $@

# fuzz/run.sh reads them, under `make fuzz` and as a suite of `make test`.
export FUZZ_SECONDS FUZZ_TARGETS
test: export WERROR = -Werror
test: $(FUZZ_BINS) $(BUILD)/fuzz/corpus/.seeded
fuzz: $(FUZZ_BINS) $(BUILD)/fuzz/corpus/.seeded
	BUILD='$(BUILD)' sh fuzz/run.sh

# ---- every platform: spec/native/test_vectors.c (every testdata/ file and
# the default generators' thread test, no Lua) built for each target,
# statically, and run by spec/platform.sh: natively, under qemu-user
# (i686 too when the kernel cannot run i386 binaries) or under wine.
# `make test-<target>` builds and runs one; `make test` runs them all.
PLATFORMS = c i686 musl mips armhf s390x windows
platform_cc_c       = $(CC)
platform_cc_i686    = i686-linux-gnu-gcc
platform_cc_musl    = musl-gcc
platform_cc_mips    = mips-linux-gnu-gcc
platform_cc_armhf   = arm-linux-gnueabihf-gcc
platform_cc_s390x   = s390x-linux-gnu-gcc
platform_cc_windows = x86_64-w64-mingw32-gcc
platform_exe = $(BUILD)/platform/$1/test_vectors$(if $(filter windows,$1),.exe)
PLATFORM_EXES = $(foreach p,$(PLATFORMS),$(call platform_exe,$p))
WIN_LIBS = -lbcrypt

define platform_rules
$(call platform_exe,$1): spec/native/test_vectors.c spec/native/tap.h $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $$(@D)
	$(platform_cc_$1) $$(WARN) $$(CFLAGS) -static -Isrc -o $$@ spec/native/test_vectors.c $$(CORE_SRC) \
	    $(if $(filter windows,$1),$$(WIN_LIBS),-pthread)
test-$1: $(call platform_exe,$1)
	BUILD='$$(BUILD)' sh spec/platform.sh $1
.PHONY: test-$1
endef
$(foreach p,$(PLATFORMS),$(eval $(call platform_rules,$p)))

# The Lua module for Windows from the same sources: mintid.dll,
# cross-built against Lua 5.4's headers and linked to lua54.dll (the name of
# Lua 5.4's usual Windows builds) through an import library made here from
# the Lua functions the binding calls. No Windows Lua runs it here.
WIN_CC = $(platform_cc_windows)
WIN_DIR = $(BUILD)/windows
WIN_MODULE = $(WIN_DIR)/mintid.dll
windows-module: $(WIN_MODULE)
$(WIN_MODULE): $(BIND_SRC) $(BIND_HDR) $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $(@D)
	$(WIN_CC) $(WARN) $(CFLAGS) -I$(call lua_incdir,5.4) -c -o $(WIN_DIR)/lua_mintid.o $(BIND_SRC)
	{ echo 'LIBRARY lua54.dll'; echo EXPORTS; \
	  x86_64-w64-mingw32-nm -u $(WIN_DIR)/lua_mintid.o | awk '$$2 ~ /^luaL?_/ { print $$2 }'; } > $(WIN_DIR)/lua54.def
	x86_64-w64-mingw32-dlltool -d $(WIN_DIR)/lua54.def -l $(WIN_DIR)/liblua54.a
	$(WIN_CC) $(WARN) $(CFLAGS) -Isrc -shared -static-libgcc -Wl,--export-all-symbols -o $@ \
	    $(WIN_DIR)/lua_mintid.o $(CORE_SRC) $(WIN_DIR)/liblua54.a $(WIN_LIBS)

# The platform layer's own native tests (run by make test):
# - test_random: the OS source's fallbacks through link-time fakes of
#   getrandom, open and read (EINTR, short reads, ENOSYS, EPERM, failures);
#   test_random_urandom the same with the core built without getrandom;
# - test_default_clone: the fork tests with children made by raw clone (no
#   pthread_atfork handler runs: the MADV_WIPEONFORK sentinel must see them);
#   test_default_atfork: the fork tests with the sentinel compiled out, so
#   the pthread_atfork handlers alone must.
CORE_OBJ_BUT_OS = $(filter-out $(BUILD)/core/os_posix.o,$(CORE_OBJ))
PLATFORM_TESTS = $(BUILD)/test_random $(BUILD)/test_random_urandom \
                 $(BUILD)/test_default_clone $(BUILD)/test_default_atfork
WRAP_OS = -Wl,--wrap=getrandom,--wrap=open,--wrap=read
# - test_frozen_clock: the Snowflake wait on a wall clock that stands still,
#   under the frozen_clock.so shim (the test preloads it itself).
PLATFORM_TESTS += $(BUILD)/test_frozen_clock
$(BUILD)/frozen_clock.so: spec/native/frozen_clock.c
	$(CC) $(WARN) $(CFLAGS) -fPIC -shared -o $@ $< -ldl
$(BUILD)/test_frozen_clock: $(BUILD)/frozen_clock.so
$(BUILD)/variant/%/os_posix.o: src/os_posix.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(VARIANT_FLAGS) -c -o $@ $<
$(BUILD)/variant/nogetrandom/os_posix.o: VARIANT_FLAGS = -DMINTID_NO_GETRANDOM
$(BUILD)/variant/nowipe/os_posix.o: VARIANT_FLAGS = -DMINTID_NO_WIPEONFORK
$(BUILD)/test_random: spec/native/test_random.c spec/native/tap.h $(CORE_OBJ)
	$(CC) $(WARN) $(CFLAGS) -Isrc -o $@ $< $(CORE_OBJ) $(LDLIBS) $(WRAP_OS)
$(BUILD)/test_random_urandom: spec/native/test_random.c spec/native/tap.h $(CORE_OBJ_BUT_OS) $(BUILD)/variant/nogetrandom/os_posix.o
	$(CC) $(WARN) $(CFLAGS) -DMINTID_NO_GETRANDOM -Isrc -o $@ $< $(filter %.o,$^) $(LDLIBS) $(WRAP_OS)
$(BUILD)/test_default_clone: spec/native/test_default.c spec/native/tap.h $(CORE_OBJ)
	$(CC) $(WARN) $(CFLAGS) -DTEST_RAW_CLONE -Isrc -o $@ $< $(CORE_OBJ) $(LDLIBS) $(TEST_WRAP)
$(BUILD)/test_default_atfork: spec/native/test_default.c spec/native/tap.h $(CORE_OBJ_BUT_OS) $(BUILD)/variant/nowipe/os_posix.o
	$(CC) $(WARN) $(CFLAGS) -Isrc -o $@ $< $(filter %.o,$^) $(LDLIBS) $(TEST_WRAP)

# ---- embedding (README "Embedding"): the single-file build, the static
# library, and examples/embed built from each.
# - make amalgamation: build/amalgamation/mintid.c and mintid.h, generated
#   from src/ by tools/amalgamate.py (never committed);
# - make lib: build/libmintid.a, the core and the binding (Lua LUA_VERSION);
# - examples/embed/host.c, a C program that embeds Lua and registers mintid
#   statically, from the amalgamation (Lua 5.4 and 5.1) and from the library,
#   plain and under ASan/UBSan; mint.c, a C program with no Lua, from the
#   amalgamation built with -DMINTID_NO_LUA. spec/run.sh runs them all, and
#   spec/amalgamation_check.sh compiles the amalgamation per Lua.
.PHONY: amalgamation lib embed
AMALGAMATION = $(BUILD)/amalgamation/mintid.c
LIB = $(BUILD)/libmintid.a
amalgamation: $(AMALGAMATION)
lib: $(LIB)
$(AMALGAMATION): tools/amalgamate.py $(CORE_SRC) $(CORE_HDR) $(BIND_SRC) $(BIND_HDR)
	python3 tools/amalgamate.py $(@D) $(CORE_SRC) $(BIND_SRC)

$(BUILD)/%/lua_mintid.o: $(BIND_SRC) $(BIND_HDR) $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(call lua_incdir,$*) -c -o $@ $<
$(BUILD)/asan/lua_mintid.o: $(BIND_SRC) $(BIND_HDR) $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -I$(call lua_incdir,5.4) -c -o $@ $<
$(LIB): $(BUILD)/$(LUA_VERSION)/lua_mintid.o $(CORE_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
$(BUILD)/asan/libmintid.a: $(BUILD)/asan/lua_mintid.o $(SAN_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

EMBED_HOSTS = $(BUILD)/embed/host-amalgamation-5.4 $(BUILD)/embed/host-amalgamation-5.1 \
              $(BUILD)/embed/host-lib-$(LUA_VERSION) \
              $(BUILD)/embed/asan/host-amalgamation-5.4 $(BUILD)/embed/asan/host-lib-5.4
EMBED_C = $(BUILD)/embed/mint $(BUILD)/embed/asan/mint
embed: $(EMBED_HOSTS) $(EMBED_C)
$(BUILD)/embed/host-amalgamation-%: examples/embed/host.c $(AMALGAMATION)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -I$(call lua_incdir,$*) -o $@ $< $(AMALGAMATION) -llua$* $(LDLIBS)
$(BUILD)/embed/asan/host-amalgamation-%: examples/embed/host.c $(AMALGAMATION)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(SAN_FLAGS) -I$(call lua_incdir,$*) -o $@ $< $(AMALGAMATION) -llua$* $(LDLIBS)
$(BUILD)/embed/host-lib-$(LUA_VERSION): examples/embed/host.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -I$(call lua_incdir,$(LUA_VERSION)) -o $@ $< $(LIB) -llua$(LUA_VERSION) $(LDLIBS)
$(BUILD)/embed/asan/host-lib-5.4: examples/embed/host.c $(BUILD)/asan/libmintid.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(SAN_FLAGS) -I$(call lua_incdir,5.4) -o $@ $< $(BUILD)/asan/libmintid.a -llua5.4 $(LDLIBS)
$(BUILD)/embed/mint: examples/embed/mint.c $(AMALGAMATION)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -DMINTID_NO_LUA -I$(BUILD)/amalgamation -o $@ $< $(AMALGAMATION) $(LDLIBS)
$(BUILD)/embed/asan/mint: examples/embed/mint.c $(AMALGAMATION)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(SAN_FLAGS) -DMINTID_NO_LUA -I$(BUILD)/amalgamation -o $@ $< $(AMALGAMATION) $(LDLIBS)
test: $(AMALGAMATION) $(LIB) $(EMBED_HOSTS) $(EMBED_C)

# ---- big-endian Lua: the whole busted suite on Debian's s390x Lua 5.4 under
# qemu-s390x. Its packages are fetched with apt-get download and unpacked
# into S390X_ROOT (qemu's -L prefix), never installed; busted's own Lua
# files are the host's (arch-independent). The module is cross-built in a
# build tree of its own and put where the suite's LUA_CPATH finds it.
# `make test S390X=` skips the stage.
S390X ?= s390x
S390X_ROOT = $(BUILD)/s390x/root
S390X_DEBS = libc6 libgcc-s1 libstdc++6 libreadline8 libtinfo6 liblua5.4-0 liblua5.4-dev \
             lua5.4 lua-filesystem lua-system lua-term
S390X_LUA = $(S390X_ROOT)/usr/bin/lua5.4
$(S390X_LUA):
	@dpkg --print-foreign-architectures | grep -qx s390x || { echo "no s390x package lists:" \
	    "run make deps as root (or skip this stage: make test S390X=)" >&2; exit 1; }
	rm -rf $(BUILD)/s390x/debs $(S390X_ROOT)
	mkdir -p $(BUILD)/s390x/debs $(S390X_ROOT)
	cd $(BUILD)/s390x/debs && apt-get download $(S390X_DEBS:%=%:s390x)
	for deb in $(BUILD)/s390x/debs/*.deb; do dpkg -x "$$deb" $(S390X_ROOT) || exit 1; done
s390x-lua: $(S390X_LUA)
	$(MAKE) CC=s390x-linux-gnu-gcc BUILD=$(BUILD)/s390x/obj LUA_VERSION=5.4 \
	    CFLAGS='$(CFLAGS) -idirafter $(S390X_ROOT)/usr/include/s390x-linux-gnu' \
	    $(BUILD)/s390x/obj/5.4/mintid.so $(BUILD)/s390x/obj/5.4/testfork.so
	mkdir -p $(BUILD)/s390x
	cp $(BUILD)/s390x/obj/5.4/mintid.so $(BUILD)/s390x/mintid.so
	cp $(BUILD)/s390x/obj/5.4/testfork.so $(BUILD)/s390x/testfork.so
.PHONY: s390x-lua

# As root on Debian: installs DEB_PACKAGES (nothing else is fetched), and
# adds the s390x architecture's package lists for the big-endian Lua stage
# (no s390x package is installed: see S390X_DEBS).
deps:
	dpkg --add-architecture s390x
	DEBIAN_FRONTEND=noninteractive apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y $(DEB_PACKAGES)

demo: $(MODULE)
	LUA_CPATH='$(BUILD)/$(LUA_VERSION)/?.so;;' $(LUA) examples/demo.lua

# The database specs run once, under DB_LUA (a Lua that LuaSQL is built for).
DB_LUA ?= 5.4
test: $(foreach v,$(TEST_LUAS) asan,$(BUILD)/$(v)/mintid.so $(BUILD)/$(v)/testfork.so) \
      $(BUILD)/$(DB_LUA)/mintid.so $(NATIVE_TESTS) $(SAN_TESTS) $(ALLOC_TESTS) \
      $(PLATFORM_TESTS) $(PLATFORM_EXES) $(WIN_MODULE) $(if $(S390X),s390x-lua)
	CC='$(CC)' TEST_LUAS='$(TEST_LUAS)' BUILD='$(BUILD)' DB_LUA='$(DB_LUA)' PLATFORMS='$(PLATFORMS)' \
	    EMBED_HOSTS='$(EMBED_HOSTS) $(EMBED_C)' \
	    S390X_ROOT='$(if $(S390X),$(S390X_ROOT))' sh spec/run.sh

# Debian's nginx and its Lua module (LuaJIT) under load, 4 workers:
# spec/nginx/run.sh. make test runs it too, so it needs the LuaJIT module
# even when TEST_LUAS has no jit.
test-nginx: $(BUILD)/jit/mintid.so
	BUILD='$(BUILD)' sh spec/nginx/run.sh
test: $(BUILD)/jit/mintid.so

# The C core alone (bench/core.c): no Lua, the same objects as the module.
$(BUILD)/bench_core: bench/core.c $(CORE_OBJ)
	$(CC) $(WARN) $(CFLAGS) -Isrc -o $@ $< $(CORE_OBJ) $(LDLIBS)

bench: $(MODULE) $(BUILD)/jit/mintid.so $(BUILD)/bench_core
	$(BUILD)/bench_core
	@echo
	LUA_PATH='lua/?.lua;;' LUA_CPATH='$(BUILD)/$(LUA_VERSION)/?.so;;' $(LUA) bench/bench.lua
	@echo
	@echo "LuaJIT: resty.mintid (FFI) against mintid (Lua C API)"
	LUA_PATH='lua/?.lua;;' LUA_CPATH='$(BUILD)/jit/?.so;;' luajit bench/ffi.lua

# The threads bench and the ThreadSanitizer tests.
include mk/threads.mk

vectors:
	python3 testdata/generate_vectors.py

# The FFI declarations of resty.mintid, generated from src/mintid.h (make test
# fails when the committed file differs from a fresh generation).
cdef:
	python3 tools/gen_cdef.py

check-vectors:
	python3 testdata/generate_vectors.py --check

# Installs into a Lua tree: make install PREFIX=/usr/local (LUA_VERSION=5.4)
PREFIX ?= /usr/local
LUA_LIBDIR ?= $(PREFIX)/lib/lua/$(LUA_VERSION)
LUA_SHAREDIR ?= $(PREFIX)/share/lua/$(LUA_VERSION)
install: $(MODULE)
	install -d $(DESTDIR)$(LUA_LIBDIR)
	install -m 755 $(MODULE) $(DESTDIR)$(LUA_LIBDIR)/mintid.so
	install -d $(DESTDIR)$(LUA_SHAREDIR)/resty/mintid
	install -m 644 lua/resty/mintid.lua $(DESTDIR)$(LUA_SHAREDIR)/resty/mintid.lua
	install -m 644 lua/resty/mintid/cdef.lua $(DESTDIR)$(LUA_SHAREDIR)/resty/mintid/cdef.lua

clean:
	rm -rf $(BUILD)

# luacheck on every Lua file (.luacheckrc says which, and how).
LINT_FORMAT ?= default
lint:
	luacheck --formatter $(LINT_FORMAT) .

# The release: a source tarball and a source rock of the committed tree
# (HEAD, not the working files), built offline. luarocks pack fetches
# source.url, so it packs a copy pointing at the tarball; the committed
# rockspec then replaces that copy in the rock.
RELEASE = 0.1.0
DIST    = $(BUILD)/dist
dist:
	@git diff --quiet HEAD -- || echo "make dist: uncommitted changes are not in the release (it packs HEAD)"
	rm -rf $(DIST) && mkdir -p $(DIST)/pack
	git archive --format=tar.gz --prefix=mintid-$(RELEASE)/ -o $(DIST)/mintid-$(RELEASE).tar.gz HEAD
	sed 's|^\( *url = \).*|\1"file://$(abspath $(DIST))/mintid-$(RELEASE).tar.gz",|' \
	    rockspec/mintid-$(RELEASE)-1.rockspec > $(DIST)/pack/mintid-$(RELEASE)-1.rockspec
	cd $(DIST) && luarocks pack pack/mintid-$(RELEASE)-1.rockspec
	cd rockspec && zip -q $(abspath $(DIST))/mintid-$(RELEASE)-1.src.rock mintid-$(RELEASE)-1.rockspec
	rm -r $(DIST)/pack
	@echo "$(DIST)/mintid-$(RELEASE).tar.gz $(DIST)/mintid-$(RELEASE)-1.src.rock"

# The sources of the module mintid, for the check that the rockspecs list the same.
print-sources:
	@echo $(BIND_SRC) $(CORE_SRC)
