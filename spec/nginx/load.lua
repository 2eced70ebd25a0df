-- wrk script of `make test-nginx`: cycles through the ID kinds (run.sh
-- stops wrk once nginx has logged enough requests) and prints the totals.

local paths = {
    "/ulid", "/uuid7", "/snowflake", "/relative?key=customer-1", "/frozen/ulid",
    "/uuid7", "/snowflake", "/relative?key=customer-2", "/frozen/uuid7",
    "/ulid", "/relative?key=customer-3", "/frozen/relative?key=customer-1",
    "/relative?key=42", "/frozen/relative?key=customer-2",
}

local requests, next_request = {}, 1

-- Runs in wrk's setup state: each thread starts at another place in paths.
local threads = 0
function setup(thread)
    threads = threads + 1
    thread:set("first", threads * 5)
end

function init()
    for i, path in ipairs(paths) do
        requests[i] = wrk.format("GET", path)
    end
    next_request = (first or 0) % #requests + 1
end

function request()
    local r = requests[next_request]
    next_request = next_request % #requests + 1
    return r
end

function done(summary)
    local e = summary.errors
    io.write(("wrk: requests %d connect %d read %d write %d status %d timeout %d\n"):format(
        summary.requests, e.connect, e.read, e.write, e.status, e.timeout))
end
