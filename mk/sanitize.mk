# ---- AddressSanitizer and UBSan: the module (the busted suite runs on it
# under lua$(SAN_LUA), libasan preloaded), the native tests, and the
# out-of-memory runs of `make test-alloc` (spec/native/test_alloc.c: every
# allocation of a script failing in turn, for each of ALLOC_LUAS, under
# LeakSanitizer too).
SAN_LUA    ?= 5.4
ALLOC_LUAS ?= 5.4 5.1
SAN_FLAGS   = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_OBJ     = $(CORE_SRC:src/%.c=$(BUILD)/asan/core/%.o)
SAN_TESTS   = core default wipe
ALLOC_EXES  = $(ALLOC_LUAS:%=$(BUILD)/asan/test_alloc-%)
NATIVE_EXES += $(SAN_TESTS:%=$(BUILD)/asan/test_%)
TEST_DEPS   += $(BUILD)/asan/mintid.so $(BUILD)/asan/testfork.so $(ALLOC_EXES)
RUN_ENV     += SAN_LUA='$(SAN_LUA)' ALLOC_EXES='$(ALLOC_EXES)'
.PHONY: test-alloc
.SECONDARY: $(SAN_OBJ)

$(eval $(call compile_objects,asan/core,$$(CC) $$(ALL_CFLAGS) $$(SAN_FLAGS),$(CORE_HDR)))

$(BUILD)/asan/mintid.so: $(BIND_SRC) $(BIND_HDR) $(SAN_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -I$(call lua_incdir,$(SAN_LUA)) -shared -o $@ $(BIND_SRC) $(SAN_OBJ) $(LDLIBS)

$(BUILD)/asan/test_%: spec/native/test_%.c spec/native/tap.h $(SAN_OBJ)
	$(CC) $(WARN) $(CFLAGS) $(SAN_FLAGS) -Isrc -o $@ $< $(SAN_OBJ) $(TEST_LUA) $(LDLIBS) $(TEST_WRAP)

# The static library, sanitized, for the embed example (mk/embed.mk).
SAN_BIND_OBJ = $(BIND_SRC:src/%.c=$(BUILD)/asan/bind/%.o)
$(eval $(call compile_objects,asan/bind,$$(CC) $$(ALL_CFLAGS) $$(SAN_FLAGS) -I$(call lua_incdir,$(SAN_LUA)),$(BIND_HDR) $(CORE_HDR)))
$(BUILD)/asan/libmintid.a: $(SAN_BIND_OBJ) $(SAN_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/asan/test_alloc-%: spec/native/test_alloc.c spec/native/tap.h $(BIND_SRC) $(BIND_HDR) $(SAN_OBJ)
	$(CC) $(WARN) $(CFLAGS) $(SAN_FLAGS) -Isrc -I$(call lua_incdir,$*) -o $@ $< $(SAN_OBJ) -llua$* $(LDLIBS)

test-alloc: $(ALLOC_EXES)
	@for t in $(ALLOC_EXES); do ASAN_OPTIONS=detect_leaks=1 $$t || exit 1; done
