-- wrk script of spec/lease/fleet.sh: /id, paced (2 ms between a
-- connection's requests), so that three nodes' load stays bounded.
-- luacheck: globals init request delay done, read globals wrk
local req
function init() req = wrk.format("GET", "/id") end
function request() return req end
function delay() return 2 end
function done(summary)
    io.write(("wrk: requests %d, errors: connect %d read %d status %d timeout %d\n"):format(
        summary.requests, summary.errors.connect, summary.errors.read, summary.errors.status, summary.errors.timeout))
end
