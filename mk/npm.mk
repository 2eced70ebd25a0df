# ---- the npm references (uuid, ksuid, typeid-js, @sapphire/snowflake,
# sonyflake, snowflake-id) read back what mintid
# mints: spec/npm/run.sh installs them into $(BUILD)/npm at test time (node
# and npm are Debian's), mints through the module on NPM_LUA and through
# resty.mintid on LuaJIT, alone (`make test-npm`) or as a stage of `make test`.
NPM_LUA ?= 5.4
TEST_DEPS += $(BUILD)/$(NPM_LUA)/mintid.so $(BUILD)/jit/mintid.so
RUN_ENV   += NPM_LUA='$(NPM_LUA)'
.PHONY: test-npm
test-npm: $(BUILD)/$(NPM_LUA)/mintid.so $(BUILD)/jit/mintid.so
	BUILD='$(BUILD)' NPM_LUA='$(NPM_LUA)' sh spec/npm/run.sh
