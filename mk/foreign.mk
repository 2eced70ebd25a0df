# ---- foreign Luas: the whole busted suite on Debian's own Lua of another
# architecture, under qemu-user: big-endian s390x Lua 5.4, and 32-bit armhf
# Lua 5.1 (a 32-bit lua_Integer, size_t and pointer). Each one's
# packages are fetched and unpacked into $(BUILD)/ARCH/root (qemu's -L
# prefix) by .ci/foreign-root.sh, never installed (`make deps` adds the
# architecture's package lists); busted's own Lua files are the host's. The
# module is cross-built in a build tree of its own and copied to
# $(BUILD)/ARCH, where the stage's LUA_CPATH finds it.
# `make foreign-lua-ARCH` builds one; `make test FOREIGN=` skips them all.
# Another ARCH is five lines: its triplet, Lua, qemu and packages.
FOREIGN ?= s390x armhf
foreign_triplet_s390x = s390x-linux-gnu
foreign_lua_s390x     = 5.4
foreign_qemu_s390x    = qemu-s390x
foreign_debs_s390x    = libc6 libgcc-s1 libstdc++6 libreadline8 libtinfo6 liblua5.4-0 liblua5.4-dev \
                        lua5.4 lua-filesystem lua-system lua-term
foreign_triplet_armhf = arm-linux-gnueabihf
foreign_lua_armhf     = 5.1
foreign_qemu_armhf    = qemu-arm
foreign_debs_armhf    = libc6 libgcc-s1 libstdc++6 libreadline8 libtinfo6 liblua5.1-0 liblua5.1-0-dev \
                        lua5.1 lua-filesystem lua-system lua-term lua-socket

foreign_root = $(BUILD)/$1/root
TEST_DEPS += $(FOREIGN:%=foreign-lua-%)
# ARCH:LUA:QEMU for each stage of spec/run.sh
RUN_ENV   += FOREIGN_LUAS='$(foreach a,$(FOREIGN),$a:$(foreign_lua_$a):$(foreign_qemu_$a))'
.PHONY: $(FOREIGN:%=foreign-lua-%)

define foreign_rules
$(call foreign_root,$1)/usr/bin/lua$(foreign_lua_$1):
	sh .ci/foreign-root.sh $1 $(call foreign_root,$1) $(foreign_debs_$1)
foreign-lua-$1: $(call foreign_root,$1)/usr/bin/lua$(foreign_lua_$1)
	$$(MAKE) CC=$(foreign_triplet_$1)-gcc BUILD=$$(BUILD)/$1/obj LUA_VERSION=$(foreign_lua_$1) \
	    CFLAGS='$$(CFLAGS) -idirafter $(call foreign_root,$1)/usr/include/$(foreign_triplet_$1)' \
	    $$(BUILD)/$1/obj/$(foreign_lua_$1)/mintid.so $$(BUILD)/$1/obj/$(foreign_lua_$1)/testfork.so
	cp $$(BUILD)/$1/obj/$(foreign_lua_$1)/mintid.so $$(BUILD)/$1/obj/$(foreign_lua_$1)/testfork.so $$(BUILD)/$1/
endef
$(foreach a,$(FOREIGN),$(eval $(call foreign_rules,$a)))
