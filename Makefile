# mintid: `make` builds the Lua module, `make demo` shows every kind,
# `make test-fast` checks the module and the C core in seconds, `make test`
# runs every stage (what CI runs), `make bench` prints timings.
# The test stages are built by mk/*.mk (one file per concern) and run by
# spec/run.sh; Debian's packages are installed by .ci/deps.sh (`make deps`).

# The sources of the module: the one list (the build, the rockspecs of
# `make rockspecs`, the amalgamation and `make print-sources` read it).
CORE_SRC = src/error.c src/divide.c src/hex.c src/base32.c src/monotonic.c src/ulid.c src/uuid.c \
           src/hash_block.c src/md5.c src/sha1.c src/uuid_name.c src/uuid_time.c \
           src/base62.c src/ksuid.c src/short_uuid.c src/seconds_counter.c src/objectid.c src/xid.c src/os_hostid.c \
           src/typeid.c src/trace.c src/kind.c src/iso.c \
           src/sha256.c src/sha3.c src/cuid2.c src/relative.c src/fence.c src/lock_file.c src/snowflake_layout.c src/snowflake.c src/nanoid.c \
           src/sqids.c src/sqids_blocklist.c \
           src/chacha20.c src/chacha20_simd.c src/random.c src/default.c src/abi.c \
           src/os_posix.c src/os_win32.c
CORE_HDR = src/mintid.h src/internal.h
BIND_SRC = src/lua_mintid.c src/lua_helpers.c src/lua_layout.c src/lua_values.c src/lua_fence.c src/lua_hooks.c src/lua_generators.c \
           src/lua_defaults.c src/lua_trace.c src/lua_short_uuid.c src/lua_sqids.c src/lua_lock_file.c
BIND_HDR = src/lua_helpers.h src/lua_values.h src/lua_fence.h src/lua_hooks.h src/lua_generators.h \
           src/lua_binding.h src/lua_compat.h src/lua_int64.h
# The Lua files installed with the module, as modules named by their path
# under lua/ (the rockspecs of `make rockspecs` and `make install` read it).
LUA_SRC  = lua/resty/mintid.lua lua/resty/mintid/cdef.lua \
           $(sort $(wildcard lua/mintid/*.lua lua/mintid/*/*.lua))
# The version is written once, as MINTID_VERSION in src/mintid.h.
VERSION := $(shell sed -n 's/^\#define MINTID_VERSION "\(.*\)"$$/\1/p' src/mintid.h)

LUA_VERSION ?= 5.4
LUA         ?= $(call lua_cmd,$(LUA_VERSION))
# The Lua versions of the busted suite ("jit" is LuaJIT; 5.5 is built from
# its source, mk/lua55.mk): all of them under `make test`, FAST_LUA alone
# under `make test-fast`.
TEST_LUAS   ?= 5.4 5.3 5.2 5.1 jit 5.5
FAST_LUA    ?= 5.4
# Headers of each version (Debian's layout; 5.5's source tree); override
# LUA_INCDIR for one build.
lua_incdir = $(or $(LUA_INCDIR),$(if $(filter jit,$1),/usr/include/luajit-2.1,$(if $(filter 5.5,$1),$(LUA_SRC_5_5),/usr/include/lua$1)))
lua_cmd = $(if $(filter jit,$1),luajit,$(if $(filter 5.5,$1),$(LUA55),lua$1))

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

BUILD    = build
MODULE   = $(BUILD)/$(LUA_VERSION)/mintid.so
CORE_OBJ = $(CORE_SRC:src/%.c=$(BUILD)/core/%.o)

.PHONY: all deps demo test test-build test-fast test-plan bench install uninstall clean lint dist vectors check-vectors cdef \
        rockspecs check-rockspecs man print-sources print-lua print-version

all: $(MODULE)

# compile_objects DIR,COMPILE,HEADERS: the one rule for objects, each
# variant of the sources in a folder of its own: $(BUILD)/DIR/NAME.o from
# src/NAME.c by COMPILE (a compiler and its flags, written with $$ so that
# they are read when the rule runs: `make test` adds -Werror then), remade
# when one of HEADERS changes.
define compile_objects
$(BUILD)/$1/%.o: src/%.c $3
	@mkdir -p $$(@D)
	$2 -c -o $$@ $$<
endef
$(eval $(call compile_objects,core,$$(CC) $$(ALL_CFLAGS),$(CORE_HDR)))

$(BUILD)/%/mintid.so: $(BIND_SRC) $(BIND_HDR) $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(call lua_incdir,$*) $(MODULE_LDFLAGS) -o $@ $(BIND_SRC) $(CORE_OBJ) $(LDLIBS)

# testfork, a module for spec/11-fork_spec.lua only (fork from Lua), next to
# each build of the module so the suite's LUA_CPATH finds it.
$(BUILD)/%/testfork.so: spec/native/testfork.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(call lua_incdir,$(if $(filter asan,$*),$(SAN_LUA),$*)) $(MODULE_LDFLAGS) -o $@ $<

# ---- the stages of `make test`: each file adds what its stages run to
# TEST_DEPS and the lists spec/run.sh reads to RUN_ENV.
TEST_DEPS = $(foreach v,$(filter-out $(if $(LUA_SRC_5_5),,5.5),$(TEST_LUAS)),$(BUILD)/$v/mintid.so $(BUILD)/$v/testfork.so)
RUN_ENV   = BUILD='$(BUILD)' CC='$(CC)' TEST_LUAS='$(TEST_LUAS)'
include mk/native.mk mk/sanitize.mk mk/fuzz.mk mk/platform.mk mk/foreign.mk \
        mk/embed.mk mk/db.mk mk/nginx.mk mk/threads.mk mk/npm.mk mk/lease.mk \
        mk/haproxy.mk mk/love.mk mk/lua55.mk mk/testmode.mk

# test-plan: the stages of `make test`, as spec/run.sh names them (each
# one's comment there says what it checks).
test-plan:
	@$(RUN_ENV) sh spec/run.sh list
test test-fast test-build: export WERROR = -Werror
# What the stages run is built first, a job per core (BUILD_JOBS; or as
# make -jN says): CI's machine has two. The stages then run as spec/run.sh
# orders them.
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
test:
	$(MAKE) $(if $(filter -j%,$(MAKEFLAGS)),,-j$(BUILD_JOBS)) test-build
	$(RUN_ENV) sh spec/run.sh
test-build: $(TEST_DEPS)
# The busted suite on FAST_LUA, the native core tests and the C vector
# runner natively: the first stages of `make test`.
FAST_EXES = $(FAST_NATIVE:%=$(BUILD)/test_%) $(call platform_exe,c)
test-fast: $(BUILD)/$(FAST_LUA)/mintid.so $(BUILD)/$(FAST_LUA)/testfork.so $(FAST_EXES)
	$(RUN_ENV) TEST_LUAS=$(FAST_LUA) NATIVE_EXES='$(FAST_NATIVE:%=$(BUILD)/test_%)' PLATFORMS=c \
	    sh spec/run.sh fast

# As root on Debian: every package of the build and the tests, and the
# package lists of the foreign Luas' architectures.
deps:
	sh .ci/deps.sh $(FOREIGN)

demo: $(MODULE)
	LUA_CPATH='$(BUILD)/$(LUA_VERSION)/?.so;;' $(LUA) examples/demo.lua

# The C core alone (bench/core.c): no Lua, the same objects as the module;
# then the module, and under LuaJIT the FFI binding against it.
$(BUILD)/bench_core: bench/core.c $(CORE_OBJ)
	$(CC) $(WARN) $(CFLAGS) -Isrc -o $@ $< $(CORE_OBJ) $(LDLIBS)
# The floor (bench/floor.c), a module of its own for each Lua that times.
$(BUILD)/%/mintid_bench_floor.so: bench/floor.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(call lua_incdir,$*) $(MODULE_LDFLAGS) -o $@ $<
# Every part appends its rows of the target table (issue 27) to
# BENCH_TARGETS, printed at the end; the threads bench, then HAProxy under
# load (mk/haproxy.mk), run last.
BENCH_TARGETS = $(BUILD)/bench_targets.txt
bench: $(MODULE) $(BUILD)/jit/mintid.so $(BUILD)/bench_core $(BUILD)/$(LUA_VERSION)/mintid_bench_floor.so \
       $(BUILD)/jit/mintid_bench_floor.so
	@rm -f $(BENCH_TARGETS); uptime
	BENCH_TARGETS=$(BENCH_TARGETS) $(BUILD)/bench_core
	@echo
	BENCH_TARGETS=$(BENCH_TARGETS) LUA_PATH='lua/?.lua;;' LUA_CPATH='$(BUILD)/$(LUA_VERSION)/?.so;;' \
	    $(LUA) bench/bench.lua
	@echo
	@echo "LuaJIT: resty.mintid (FFI) against mintid (Lua C API)"
	BENCH_TARGETS=$(BENCH_TARGETS) LUA_PATH='lua/?.lua;;' LUA_CPATH='$(BUILD)/jit/?.so;;' luajit bench/ffi.lua
	@echo
	BENCH_TARGETS=$(BENCH_TARGETS) $(BUILD)/bench_threads $(BUILD)/5.4
	@echo
	@$(MAKE) --no-print-directory bench-haproxy
	@echo
	@echo "Targets (issue 27), this run:"
	@awk -F'\t' '{ printf "%-44s %20s %26s  %s\n", $$1, $$2, $$3, $$4 }' $(BENCH_TARGETS)
	@uptime

# Generated files, committed; `make test` fails when one is stale: the
# vectors of testdata/, the FFI declarations of resty.mintid (from
# src/mintid.h) and the rockspecs (from tools/rockspec.in, the version and
# the source list).
vectors:
	python3 testdata/generate_vectors.py
check-vectors:
	python3 testdata/generate_vectors.py --check
cdef:
	python3 tools/gen_cdef.py
# The man page doc/mintid.1, from the text of mintid --help (its one
# source); spec/12-cli_spec.lua fails when the committed one is stale.
man: $(MODULE)
	@mkdir -p $(BUILD)/man
	LUA_PATH='lua/?.lua;;' LUA_CPATH='$(BUILD)/$(LUA_VERSION)/?.so;;' $(LUA) bin/mintid --help > $(BUILD)/man/help.txt
	LUA_PATH='lua/?.lua;;' LUA_CPATH='$(BUILD)/$(LUA_VERSION)/?.so;;' $(LUA) bin/mintid --version > $(BUILD)/man/version.txt
	$(LUA) tools/gen_man.lua $(BUILD)/man/help.txt $(BUILD)/man/version.txt > $(BUILD)/man/mintid.1
	mv $(BUILD)/man/mintid.1 doc/mintid.1
rockspecs:
	python3 tools/gen_rockspec.py $(VERSION) $(BIND_SRC) $(CORE_SRC) $(LUA_SRC)
check-rockspecs:
	python3 tools/gen_rockspec.py --check $(VERSION) $(BIND_SRC) $(CORE_SRC) $(LUA_SRC)

# Installs into a Lua tree: make install PREFIX=/usr/local (LUA_VERSION=5.4),
# the module, its Lua files and the mintid command; `make uninstall` with
# the same variables removes them.
PREFIX ?= /usr/local
LUA_LIBDIR ?= $(PREFIX)/lib/lua/$(LUA_VERSION)
LUA_SHAREDIR ?= $(PREFIX)/share/lua/$(LUA_VERSION)
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
# The command runs on the Lua it was installed for (a plain `lua` may be
# another version) and looks for the module where it was installed first,
# whatever PREFIX is, as luarocks's wrapper of it does.
install: $(MODULE)
	install -d $(DESTDIR)$(LUA_LIBDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(BUILD)/install
	install -m 755 $(MODULE) $(DESTDIR)$(LUA_LIBDIR)/mintid.so
	for f in $(LUA_SRC); do \
	    to=$(DESTDIR)$(LUA_SHAREDIR)/$${f#lua/}; \
	    install -d "$${to%/*}" && install -m 644 $$f "$$to" || exit 1; \
	done
	{ echo '#!/usr/bin/env $(LUA)'; \
	  echo 'package.path = [==[$(LUA_SHAREDIR)/?.lua;]==] .. package.path'; \
	  echo 'package.cpath = [==[$(LUA_LIBDIR)/?.so;]==] .. package.cpath'; \
	  sed 1d bin/mintid; } > $(BUILD)/install/mintid
	install -m 755 $(BUILD)/install/mintid $(DESTDIR)$(BINDIR)/mintid
	install -m 644 doc/mintid.1 $(DESTDIR)$(MANDIR)/man1/mintid.1

# The folders of the Lua files, deepest first, each removed if empty: the
# tree's own folders (bin, share/lua/5.4, ...) stay.
uninstall:
	rm -f $(DESTDIR)$(LUA_LIBDIR)/mintid.so $(DESTDIR)$(BINDIR)/mintid $(DESTDIR)$(MANDIR)/man1/mintid.1 \
	    $(LUA_SRC:lua/%=$(DESTDIR)$(LUA_SHAREDIR)/%)
	printf '%s\n' $(patsubst lua/%/,%,$(dir $(LUA_SRC))) | LC_ALL=C sort -ru | \
	    while read -r d; do rmdir "$(DESTDIR)$(LUA_SHAREDIR)/$$d" 2>/dev/null || true; done

# `luarocks make` on Unix (the rockspecs' build): the module for the Lua
# whose headers are in LUA_INCDIR, linked with luarocks's LIBFLAG, as
# build/rock/mintid.so, linked again on every call (the last one may have
# been for another Lua). Nothing is written outside $(BUILD).
.PHONY: rock
rock: $(CORE_OBJ)
	@test -n "$(LUA_INCDIR)" || { echo "make rock: set LUA_INCDIR (luarocks does)"; exit 2; }
	@mkdir -p $(BUILD)/rock
	$(CC) $(ALL_CFLAGS) -I$(LUA_INCDIR) $(or $(LIBFLAG),$(MODULE_LDFLAGS)) -o $(BUILD)/rock/mintid.so \
	    $(BIND_SRC) $(CORE_OBJ) $(LDLIBS)

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
DIST = $(BUILD)/dist
ROCKSPEC = rockspec/mintid-$(VERSION)-1.rockspec
dist:
	@git diff --quiet HEAD -- || echo "make dist: uncommitted changes are not in the release (it packs HEAD)"
	rm -rf $(DIST) && mkdir -p $(DIST)/pack
	git archive --format=tar.gz --prefix=mintid-$(VERSION)/ -o $(DIST)/mintid-$(VERSION).tar.gz HEAD
	sed 's|^\( *url = \).*|\1"file://$(abspath $(DIST))/mintid-$(VERSION).tar.gz",|' \
	    $(ROCKSPEC) > $(DIST)/pack/$(notdir $(ROCKSPEC))
	cd $(DIST) && luarocks pack pack/$(notdir $(ROCKSPEC))
	cd rockspec && zip -q $(abspath $(DIST))/mintid-$(VERSION)-1.src.rock $(notdir $(ROCKSPEC))
	rm -r $(DIST)/pack
	@echo "$(DIST)/mintid-$(VERSION).tar.gz $(DIST)/mintid-$(VERSION)-1.src.rock"

# For the checks that the rockspecs list the same sources and the release
# is the header's version.
print-sources:
	@echo $(BIND_SRC) $(CORE_SRC)
print-lua:
	@echo $(LUA_SRC)
print-version:
	@echo $(VERSION)
