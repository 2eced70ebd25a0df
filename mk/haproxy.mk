# ---- Debian's haproxy (2.6, which embeds Lua 5.3) under load, 4 threads:
# spec/haproxy/run.sh, alone (`make test-haproxy`) or as a stage of `make
# test`, which so needs the Lua 5.3 module even when TEST_LUAS has no 5.3.
TEST_DEPS += $(BUILD)/5.3/mintid.so
.PHONY: test-haproxy
test-haproxy: $(BUILD)/5.3/mintid.so
	BUILD='$(BUILD)' sh spec/haproxy/run.sh
# make bench prints HAProxy's requests/s with %[uuid] (its own) and with
# mintid's ulid() in a Lua fetch, measured in one run (bench/haproxy.sh),
# after the other parts: its servers' load is not on their figures.
.PHONY: bench-haproxy
bench: $(BUILD)/5.3/mintid.so
bench-haproxy: $(BUILD)/5.3/mintid.so
	BUILD='$(BUILD)' sh bench/haproxy.sh
