# ---- Debian's nginx and its Lua module (LuaJIT) under load, 4 workers:
# spec/nginx/run.sh, alone (`make test-nginx`) or as a stage of `make test`,
# which so needs the LuaJIT module even when TEST_LUAS has no jit.
TEST_DEPS += $(BUILD)/jit/mintid.so
.PHONY: test-nginx
test-nginx: $(BUILD)/jit/mintid.so
	BUILD='$(BUILD)' sh spec/nginx/run.sh
