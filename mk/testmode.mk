# ---- Lua's own test mode (issue 40): Lua 5.4.8 and 5.5.0 built from the
# Lua team's source with ltests.h (every C API call checked, assertions on,
# a check at exit that every block was freed) and HARDSTACKTESTS (the stack
# moved at every chance), the module and busted's C parts built against the
# same headers and defines (ltests.h changes struct layouts and the API's
# behaviour); tm-V in $(BUILD) for each. hm-V adds HARDMEMTESTS (a whole
# collection at every allocation), its binding built with gcov to show what
# the subset it runs reaches. The stages are in spec/run.sh.
TESTMODE_SRC_5_4 ?= $(wildcard ../shared/lua/5.4.8)
TESTMODE_SRC_5_5 ?= $(LUA_SRC_5_5)
TESTMODE_DEFS     = -DLUA_USER_H='"ltests.h"' -DHARDSTACKTESTS
TESTMODE_LUAS     = 5.4 5.5
testmode_src      = $(TESTMODE_SRC_$(subst .,_,$1))
# The variants whose source is there: tm-5.4 tm-5.5 hm-5.4 hm-5.5
TESTMODE_DIRS     = $(foreach v,$(TESTMODE_LUAS),$(if $(call testmode_src,$v),tm-$v hm-$v))
TESTMODE_PARTS    = lua mintid.so testfork.so $(BUSTED_C)
TESTMODE_DEPS     = $(foreach d,$(TESTMODE_DIRS),$(TESTMODE_PARTS:%=$(BUILD)/$d/%)) $(BUILD)/failing_clock.so \
                    $(if $(filter %-5.5,$(TESTMODE_DIRS)),$(BUILD)/5.5/share/ported)
TEST_DEPS        += $(TESTMODE_DEPS)
RUN_ENV          += TESTMODE_SRC_5_4='$(TESTMODE_SRC_5_4)' TESTMODE_SRC_5_5='$(TESTMODE_SRC_5_5)'
.PHONY: test-testmode

# testmode DIR,SRC,DEFINES: the interpreter, the module (the project's
# warnings, -Werror under make test), testfork and busted's C parts in
# $(BUILD)/DIR, from the Lua source in SRC with DEFINES. The binding is
# compiled object by object so that gcov finds each file's notes.
define testmode
$(BUILD)/$1/lua: $2/onelua.c
	@mkdir -p $$(@D)
	$$(CC) -O2 -g -std=c99 -DLUA_USE_LINUX $3 -Wl,-E -o $$@ $$< -lm -ldl
$(eval $(call compile_objects,$1/bind,$$(CC) $$(ALL_CFLAGS) $3 $(if $(filter hm-%,$1),--coverage -O0) -I$2,$(BIND_HDR) $(CORE_HDR)))
$(BUILD)/$1/mintid.so: $(BIND_SRC:src/%.c=$(BUILD)/$1/bind/%.o) $(CORE_OBJ)
	$$(CC) $$(ALL_CFLAGS) $(if $(filter hm-%,$1),--coverage) $(MODULE_LDFLAGS) -o $$@ $$^ $$(LDLIBS)
$(BUILD)/$1/testfork.so: spec/native/testfork.c
	$$(CC) $$(ALL_CFLAGS) $3 -I$2 $(MODULE_LDFLAGS) -o $$@ $$<
$(call busted_c,$1,$$(CC) $$(CFLAGS) $3 -I$2)
endef
$(foreach v,$(TESTMODE_LUAS),$(foreach d,tm hm,$(eval $(call testmode,$d-$v,$(call testmode_src,$v),\
    $(TESTMODE_DEFS) $(if $(filter hm,$d),-DHARDMEMTESTS)))))

# The wall clock failing, for the HARDMEMTESTS subset (spec/testmode/paths.lua).
$(BUILD)/failing_clock.so: spec/testmode/failing_clock.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -fPIC -shared -o $@ $< -ldl

# The test-mode stages alone.
test-testmode: export WERROR = -Werror
test-testmode: $(TESTMODE_DEPS)
	$(RUN_ENV) sh spec/run.sh testmode
