# ---- Lua 5.5 (issue 40): Debian 12 has no package of it, so the busted
# suite runs on an interpreter built from the Lua team's source in
# LUA_SRC_5_5 (../shared/lua/5.5.0, where CI has it), with the module built
# against its headers (lua_incdir). Without the source the stage says it is
# skipped, or fails when CI=true (spec/run.sh).
LUA_SRC_5_5 ?= $(wildcard ../shared/lua/5.5.0)
LUA55       = $(BUILD)/lua-5.5/lua
RUN_ENV    += LUA_SRC_5_5='$(LUA_SRC_5_5)'
ifneq ($(LUA_SRC_5_5),)
ifneq ($(filter 5.5,$(TEST_LUAS)),)
TEST_DEPS  += $(LUA55) $(BUILD)/5.5/share/ported $(BUSTED_C:%=$(BUILD)/5.5/%)
endif
# the out-of-memory runs of mk/sanitize.mk on 5.5 too
ALLOC_LUAS += 5.5
endif

# The interpreter as Lua's README builds it: onelua.c, exporting its
# symbols for the modules it loads.
$(BUILD)/lua-5.5/lua: $(LUA_SRC_5_5)/onelua.c
	@mkdir -p $(@D)
	$(CC) -O2 -std=c99 -DLUA_USE_LINUX -Wl,-E -o $@ $< -lm -ldl

# The out-of-memory runs link Lua in: 5.5's library, under ASan as they are.
$(BUILD)/asan/lua-5.5.o: $(LUA_SRC_5_5)/onelua.c
	@mkdir -p $(@D)
	$(CC) -O2 -g -std=c99 -DLUA_USE_LINUX -DMAKE_LIB $(SAN_FLAGS) -c -o $@ $<
$(BUILD)/asan/test_alloc-5.5: spec/native/test_alloc.c spec/native/tap.h $(BIND_SRC) $(BIND_HDR) $(SAN_OBJ) \
                              $(BUILD)/asan/lua-5.5.o
	$(CC) $(WARN) $(CFLAGS) $(SAN_FLAGS) -Isrc -I$(LUA_SRC_5_5) -o $@ $< $(SAN_OBJ) $(BUILD)/asan/lua-5.5.o \
	    $(LDLIBS) -lm -ldl

# ---- busted on a Lua built from source. Its Lua code is Debian's for 5.4
# (BUSTED_SHARE); its C parts are built for each such Lua by busted_c: lfs
# from Debian's source (spec/busted_c/debian_source.sh), system.core and
# term.core from stand-ins (spec/busted_c/standins.c says why).
BUSTED_SHARE   = /usr/share/lua/5.4
BUSTED_MODULES = busted luassert say pl cliargs term system mediator.lua dkjson.lua cliargs.lua busted.lua
BUSTED_C       = lfs.so system/core.so term/core.so
DEBSRC         = $(BUILD)/debsrc
RUN_ENV       += BUSTED_SHARE='$(BUSTED_SHARE)'

$(DEBSRC)/lfs/lfs.c: spec/busted_c/debian_source.sh
	sh spec/busted_c/debian_source.sh $(DEBSRC)

# busted_c DIR,COMPILE: busted's C parts in $(BUILD)/DIR, by COMPILE (a
# compiler and the flags of that Lua; not the project's warnings: the code
# is Debian's, or stands in for it).
define busted_c
$(BUILD)/$1/lfs.so: $(DEBSRC)/lfs/lfs.c
	@mkdir -p $$(@D)
	$2 -fPIC -shared -I$(DEBSRC)/lfs -o $$@ $$<
$(BUILD)/$1/system/core.so $(BUILD)/$1/term/core.so: spec/busted_c/standins.c
	@mkdir -p $$(@D)
	$2 -fPIC -shared -o $$@ $$<
endef
$(eval $(call busted_c,5.5,$$(CC) $$(CFLAGS) -I$(LUA_SRC_5_5)))

# Debian's Penlight assigns to for loops' control variables, which 5.5
# made read-only: the files that 5.5 cannot compile, ported (port55.lua).
$(BUILD)/5.5/share/ported: spec/busted_c/port55.lua $(LUA55)
	@rm -rf $(@D) && mkdir -p $(@D)
	cd $(BUSTED_SHARE) && $(abspath $(LUA55)) $(abspath $<) . $(abspath $(@D)) \
	    $$(find -L $(BUSTED_MODULES) -name '*.lua' | sed 's|^\./||') > $(abspath $@)
