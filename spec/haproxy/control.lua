-- Test only (make test-haproxy): the fetches and the action of
-- spec/haproxy/mintid.lua in plain Lua, without mintid, returning values of
-- the same shapes (a counter of the state, padded to 26 and 36 chars, an
-- integer of 19 digits, a 55-char traceparent). The control run serves
-- these: a logged value that differs from the one returned is then
-- HAProxy's own doing.
local n = 0
local function count()
    n = n + 1
    return n
end
core.register_fetches("ulid", function() return ("U%025d"):format(count()) end)
core.register_fetches("uuid7", function() return ("V%035d"):format(count()) end)
core.register_fetches("snowflake", function() return 7000000000000000000 + count() end)
core.register_action("traceparent", { "http-req" }, function(txn)
    txn:set_var("txn.traceparent", ("00-%032d-%016d-01"):format(count(), n))
end)
