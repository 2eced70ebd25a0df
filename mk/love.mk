# ---- Debian's LÖVE (11.4, LuaJIT), headless: spec/love/run.sh, alone
# (`make test-love`) or as a stage of `make test`; it loads the LuaJIT
# build of the module.
TEST_DEPS += $(BUILD)/jit/mintid.so
.PHONY: test-love
test-love: $(BUILD)/jit/mintid.so
	BUILD='$(BUILD)' sh spec/love/run.sh
