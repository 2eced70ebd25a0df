# ---- every platform: spec/native/test_vectors.c (every testdata/ file and
# the default generators' thread test, no Lua) built statically for each
# target and run by spec/platform.sh: natively, under qemu-user (i686 too
# when the kernel cannot run i386 binaries) or under wine. `make test-<target>`
# builds and runs one; `make test` runs them all.
PLATFORMS ?= c i686 musl mips armhf s390x windows
platform_cc_c       = $(CC)
platform_cc_i686    = i686-linux-gnu-gcc
platform_cc_musl    = musl-gcc
platform_cc_mips    = mips-linux-gnu-gcc
platform_cc_armhf   = arm-linux-gnueabihf-gcc
platform_cc_s390x   = s390x-linux-gnu-gcc
platform_cc_windows = x86_64-w64-mingw32-gcc
platform_exe = $(BUILD)/platform/$1/test_vectors$(if $(filter windows,$1),.exe)
PLATFORM_EXES = $(foreach p,$(PLATFORMS),$(call platform_exe,$p))
WIN_LIBS = -lbcrypt -ladvapi32
TEST_DEPS += $(PLATFORM_EXES) $(if $(filter windows,$(PLATFORMS)),$(WIN_MODULE))
RUN_ENV   += PLATFORMS='$(PLATFORMS)'
.PHONY: windows-module $(PLATFORMS:%=test-%)

define platform_rules
$(call platform_exe,$1): spec/native/test_vectors.c spec/native/tap.h $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $$(@D)
	$(platform_cc_$1) $$(WARN) $$(CFLAGS) -static -Isrc -o $$@ spec/native/test_vectors.c $$(CORE_SRC) \
	    $(if $(filter windows,$1),$$(WIN_LIBS),-pthread)
test-$1: $(call platform_exe,$1)
	BUILD='$$(BUILD)' sh spec/platform.sh $1
endef
$(foreach p,$(PLATFORMS),$(eval $(call platform_rules,$p)))

# The Lua module for Windows from the same sources: mintid.dll, cross-built
# against Lua 5.4's headers and linked to lua54.dll (the name of Lua 5.4's
# usual Windows builds) through an import library made here from the Lua
# functions the binding calls. No Windows Lua runs it here.
WIN_CC = $(platform_cc_windows)
WIN_DIR = $(BUILD)/windows
WIN_MODULE = $(WIN_DIR)/mintid.dll
WIN_BIND_OBJ = $(BIND_SRC:src/%.c=$(WIN_DIR)/%.o)
windows-module: $(WIN_MODULE)
$(eval $(call compile_objects,windows,$$(WIN_CC) $$(WARN) $$(CFLAGS) -I$(call lua_incdir,5.4),$(BIND_HDR) $(CORE_HDR)))
$(WIN_MODULE): $(WIN_BIND_OBJ) $(CORE_SRC) $(CORE_HDR)
	{ echo 'LIBRARY lua54.dll'; echo EXPORTS; \
	  x86_64-w64-mingw32-nm -u $(WIN_BIND_OBJ) | awk '$$2 ~ /^luaL?_/ { print $$2 }' | sort -u; } > $(WIN_DIR)/lua54.def
	x86_64-w64-mingw32-dlltool -d $(WIN_DIR)/lua54.def -l $(WIN_DIR)/liblua54.a
	$(WIN_CC) $(WARN) $(CFLAGS) -Isrc -shared -static-libgcc -Wl,--export-all-symbols -o $@ \
	    $(WIN_BIND_OBJ) $(CORE_SRC) $(WIN_DIR)/liblua54.a $(WIN_LIBS)
