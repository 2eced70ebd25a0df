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
WARN     = -std=c99 -pedantic -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes -Wshadow
ALL_CFLAGS = $(WARN) -fPIC $(CFLAGS)
LDLIBS  = -pthread

CORE_SRC = src/error.c src/base32.c src/monotonic.c src/ulid.c src/uuid.c \
           src/sha256.c src/relative.c src/snowflake.c src/nanoid.c \
           src/random.c src/clock.c src/default.c src/abi.c
CORE_HDR = src/mintid.h src/internal.h
BIND_SRC = src/lua_mintid.c
BIND_HDR = src/lua_compat.h

BUILD   = build
MODULE  = $(BUILD)/$(LUA_VERSION)/mintid/core.so
CORE_OBJ = $(CORE_SRC:src/%.c=$(BUILD)/core/%.o)

.PHONY: all deps demo test test-alloc test-nginx bench install clean vectors check-vectors lint dist print-sources cdef

# Debian packages that the build and every suite of `make test` need.
DEB_PACKAGES = build-essential ca-certificates python3 valgrind lua-busted luarocks \
    lua5.4 liblua5.4-dev lua5.3 liblua5.3-dev lua5.2 liblua5.2-dev \
    lua5.1 liblua5.1-0-dev luajit2 libluajit2-5.1-dev \
    nginx libnginx-mod-http-lua libnginx-mod-http-ndk lua-resty-core lua-resty-lrucache \
    wrk curl
# lint, the database specs and the release rock (make lint, make dist)
DEB_PACKAGES += lua-check lua-sql-sqlite3 lua-sql-postgres postgresql sqlite3 git zip unzip

all: $(MODULE)

$(BUILD)/core/%.o: src/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/%/mintid/core.so: $(BIND_SRC) $(BIND_HDR) $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(call lua_incdir,$*) -shared -o $@ $(BIND_SRC) $(CORE_OBJ) $(LDLIBS)

# testfork, a module for spec/11-fork_spec.lua only (fork from Lua), next to
# each build of the module so the suite's LUA_CPATH finds it.
$(BUILD)/%/testfork.so: spec/native/testfork.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(call lua_incdir,$(if $(filter asan,$*),5.4,$*)) -shared -o $@ $<

# Native tests of the core: vectors of SHA-256/HMAC, threads and fork; and
# test_wipe, which embeds Lua 5.4 and #includes the binding to read a
# relative generator's bytes after __gc and __close.
NATIVE_TESTS = $(BUILD)/test_core $(BUILD)/test_default $(BUILD)/test_wipe
.SECONDARY: $(CORE_OBJ)
$(BUILD)/test_%: spec/native/test_%.c spec/native/tap.h $(CORE_OBJ)
	$(CC) $(WARN) $(CFLAGS) -Isrc -o $@ $< $(CORE_OBJ) $(TEST_LUA) $(LDLIBS)

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

$(BUILD)/asan/mintid/core.so: $(BIND_SRC) $(BIND_HDR) $(SAN_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -I$(call lua_incdir,5.4) -shared -o $@ $(BIND_SRC) $(SAN_OBJ) $(LDLIBS)

$(BUILD)/asan/test_%: spec/native/test_%.c spec/native/tap.h $(SAN_OBJ)
	$(CC) $(WARN) $(CFLAGS) $(SAN_FLAGS) -Isrc -o $@ $< $(SAN_OBJ) $(TEST_LUA) $(LDLIBS)

# Out-of-memory runs (spec/native/test_alloc.c) for Lua 5.4 and 5.1, under
# ASan/UBSan and LeakSanitizer; `make test` runs them through spec/run.sh.
ALLOC_LUAS = 5.4 5.1
ALLOC_TESTS = $(ALLOC_LUAS:%=$(BUILD)/asan/test_alloc-%)
$(BUILD)/asan/test_alloc-%: spec/native/test_alloc.c spec/native/tap.h $(BIND_SRC) $(BIND_HDR) $(SAN_OBJ)
	$(CC) $(WARN) $(CFLAGS) $(SAN_FLAGS) -Isrc -I$(call lua_incdir,$*) -o $@ $< $(SAN_OBJ) -llua$* $(LDLIBS)

test-alloc: $(ALLOC_TESTS)
	@for t in $(ALLOC_TESTS); do ASAN_OPTIONS=detect_leaks=1 $$t || exit 1; done

# As root on Debian: installs DEB_PACKAGES (nothing else is fetched).
deps:
	DEBIAN_FRONTEND=noninteractive apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y $(DEB_PACKAGES)

demo: $(MODULE)
	LUA_PATH='lua/?.lua;;' LUA_CPATH='$(BUILD)/$(LUA_VERSION)/?.so;;' $(LUA) examples/demo.lua

# The database specs run once, under DB_LUA (a Lua that LuaSQL is built for).
DB_LUA ?= 5.4
test: $(foreach v,$(TEST_LUAS) asan,$(BUILD)/$(v)/mintid/core.so $(BUILD)/$(v)/testfork.so) \
      $(BUILD)/$(DB_LUA)/mintid/core.so $(NATIVE_TESTS) $(SAN_TESTS) $(ALLOC_TESTS)
	CC='$(CC)' TEST_LUAS='$(TEST_LUAS)' BUILD='$(BUILD)' DB_LUA='$(DB_LUA)' sh spec/run.sh

# Debian's nginx and its Lua module (LuaJIT) under load, 4 workers:
# spec/nginx/run.sh. make test runs it too, so it needs the LuaJIT module
# even when TEST_LUAS has no jit.
test-nginx: $(BUILD)/jit/mintid/core.so
	BUILD='$(BUILD)' sh spec/nginx/run.sh
test: $(BUILD)/jit/mintid/core.so

bench: $(MODULE) $(BUILD)/jit/mintid/core.so
	LUA_PATH='lua/?.lua;;' LUA_CPATH='$(BUILD)/$(LUA_VERSION)/?.so;;' $(LUA) bench/bench.lua
	@echo
	@echo "LuaJIT: resty.mintid (FFI) against mintid (Lua C API)"
	LUA_PATH='lua/?.lua;;' LUA_CPATH='$(BUILD)/jit/?.so;;' luajit bench/ffi.lua

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
	install -d $(DESTDIR)$(LUA_LIBDIR)/mintid $(DESTDIR)$(LUA_SHAREDIR)
	install -m 755 $(MODULE) $(DESTDIR)$(LUA_LIBDIR)/mintid/core.so
	install -m 644 lua/mintid.lua $(DESTDIR)$(LUA_SHAREDIR)/mintid.lua
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

# The sources of mintid.core, for the check that the rockspecs list the same.
print-sources:
	@echo $(BIND_SRC) $(CORE_SRC)
