# ---- Machine-id leases on a real Redis (issue 21), each run a stage of
# `make test` and, alone, `make test-lease`: spec/lease/chaos.sh (plain-Lua
# holders on LEASE_LUA's module, Debian's lua-redis over LuaSocket, which
# Debian builds for 5.1-5.3) and spec/lease/fleet.sh (three nginx on the
# LuaJIT module, with lua-resty-redis: the one Lua file of Debian's
# lua-nginx-redis, fetched by apt-get download into the build tree, since
# installing it would pull in nginx-extras); and spec/lease/lock_file_chaos.sh
# (lock files removed, renamed or symlinked under their holders). The fake-store spec
# (spec/23-lease_redis_spec.lua) needs no server and runs in every busted stage.
LEASE_LUA ?= 5.3
RESTY_REDIS = $(BUILD)/lua-resty-redis/resty/redis.lua
TEST_DEPS += $(BUILD)/$(LEASE_LUA)/mintid.so $(BUILD)/$(LEASE_LUA)/testfork.so $(BUILD)/jit/mintid.so $(RESTY_REDIS)
RUN_ENV   += LEASE_LUA='$(LEASE_LUA)'

$(RESTY_REDIS):
	rm -rf $(BUILD)/lua-resty-redis.deb && mkdir -p $(BUILD)/lua-resty-redis.deb $(@D)
	cd $(BUILD)/lua-resty-redis.deb && sh $(CURDIR)/.ci/retry.sh apt-get download lua-nginx-redis && dpkg-deb -x lua-nginx-redis_*.deb root
	cp $(BUILD)/lua-resty-redis.deb/root/usr/share/lua/5.1/nginx/redis.lua $@
	rm -rf $(BUILD)/lua-resty-redis.deb

.PHONY: test-lease
test-lease: $(BUILD)/$(LEASE_LUA)/mintid.so $(BUILD)/$(LEASE_LUA)/testfork.so $(BUILD)/jit/mintid.so $(RESTY_REDIS)
	BUILD='$(BUILD)' LEASE_LUA='$(LEASE_LUA)' sh spec/lease/chaos.sh
	BUILD='$(BUILD)' LEASE_LUA='$(LEASE_LUA)' LAYOUT=sonyflake sh spec/lease/chaos.sh
	BUILD='$(BUILD)' LEASE_LUA='$(LEASE_LUA)' sh spec/lease/lock_file_chaos.sh
	BUILD='$(BUILD)' sh spec/lease/fleet.sh
	BUILD='$(BUILD)' LAYOUT=sonyflake sh spec/lease/fleet.sh
	BUILD='$(BUILD)' sh spec/lease/fleet_doc.sh
