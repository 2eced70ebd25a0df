-- wrk script of `make test-haproxy`: every request carries a traceparent
-- header, in turn a valid one with a trace-id of its own (which the answer
-- must continue), none, and invalid ones (which must start a new trace).
-- run.sh stops wrk once haproxy has logged enough requests.
local hex = "0123456789abcdef"
local function random_hex(n)
    local t = {}
    for i = 1, n do
        local k = math.random(16)
        t[i] = hex:sub(k, k)
    end
    return table.concat(t)
end

local invalid = {
    "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",  -- uppercase
    "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  -- version ff
    "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  -- all-zero trace-id
    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
    "not a traceparent",
}

local n = 0
function init()
    math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100000)
end

function request()
    n = n + 1
    local kind = n % 4
    local headers = {}
    if kind == 0 or kind == 1 then
        headers.traceparent = ("00-%s-%s-0%d"):format(random_hex(32), random_hex(16), kind)
    elseif kind == 3 then
        headers.traceparent = invalid[n % #invalid + 1]
    end
    return wrk.format("GET", "/", headers)
end
