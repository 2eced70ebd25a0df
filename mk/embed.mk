# ---- embedding (doc/guide.md "Embedding"): the single-file build, the static
# library, and examples/embed built from each.
# - make amalgamation: build/amalgamation/mintid.c and mintid.h, generated
#   from the source list by tools/amalgamate.py (never committed);
# - make lib: build/libmintid.a, the core and the binding (Lua LUA_VERSION);
# - make embed: examples/embed/host.c, a C program that embeds Lua and
#   registers mintid statically, from the amalgamation (each of EMBED_LUAS)
#   and from the library, plain and under ASan/UBSan; mint.c, a C program
#   with no Lua, from the amalgamation built with -DMINTID_NO_LUA.
# spec/run.sh runs each, and spec/amalgamation_check.sh compiles the
# amalgamation per Lua.
EMBED_LUAS ?= 5.4 5.1
AMALGAMATION = $(BUILD)/amalgamation/mintid.c
LIB = $(BUILD)/libmintid.a
.PHONY: amalgamation lib embed
amalgamation: $(AMALGAMATION)
lib: $(LIB)

$(AMALGAMATION): tools/amalgamate.py $(CORE_SRC) $(CORE_HDR) $(BIND_SRC) $(BIND_HDR)
	python3 tools/amalgamate.py $(@D) $(CORE_SRC) $(BIND_SRC)

# The binding's objects, for Lua LUA_VERSION.
BIND_OBJ = $(BIND_SRC:src/%.c=$(BUILD)/$(LUA_VERSION)/bind/%.o)
$(eval $(call compile_objects,$(LUA_VERSION)/bind,$$(CC) $$(ALL_CFLAGS) -I$(call lua_incdir,$(LUA_VERSION)),$(BIND_HDR) $(CORE_HDR)))
$(LIB): $(BIND_OBJ) $(CORE_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# embed_exe NAME,PROGRAM,LINKED,LUA,FLAGS: $(BUILD)/embed/NAME, the
# program examples/embed/PROGRAM.c linked with LINKED (and liblua LUA, if any).
define embed_exe
EMBED_EXES += $(BUILD)/embed/$1
$(BUILD)/embed/$1: examples/embed/$2.c $3
	@mkdir -p $$(@D)
	$$(CC) $$(WARN) $$(CFLAGS) $5 $(if $4,-I$(call lua_incdir,$4)) -o $$@ $$< $3 $(if $4,-llua$4) $$(LDLIBS)
endef
$(foreach v,$(EMBED_LUAS),$(eval $(call embed_exe,host-amalgamation-$v,host,$(AMALGAMATION),$v)))
$(eval $(call embed_exe,host-lib-$(LUA_VERSION),host,$(LIB),$(LUA_VERSION)))
$(eval $(call embed_exe,mint,mint,$(AMALGAMATION),,-DMINTID_NO_LUA -I$(BUILD)/amalgamation))
$(eval $(call embed_exe,asan/host-amalgamation-$(SAN_LUA),host,$(AMALGAMATION),$(SAN_LUA),$(SAN_FLAGS)))
$(eval $(call embed_exe,asan/host-lib-$(SAN_LUA),host,$(BUILD)/asan/libmintid.a,$(SAN_LUA),$(SAN_FLAGS)))
$(eval $(call embed_exe,asan/mint,mint,$(AMALGAMATION),,$(SAN_FLAGS) -DMINTID_NO_LUA -I$(BUILD)/amalgamation))

embed: $(EMBED_EXES)
TEST_DEPS += $(AMALGAMATION) $(LIB) $(EMBED_EXES)
RUN_ENV   += EMBED_EXES='$(EMBED_EXES)'
