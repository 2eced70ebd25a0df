-- W3C Trace Context (the Recommendation of 23 November 2021; section numbers
-- below are its): trace_id(), span_id(), traceparent() and
-- parse_traceparent(). Every rule is in the C core (src/trace.c).
local h = require "helper"
local mintid = require(h.module_name)

local TRACE_ID = "^" .. ("[0-9a-f]"):rep(32) .. "$"
local SPAN_ID = "^" .. ("[0-9a-f]"):rep(16) .. "$"
local HEADER = "^00%-" .. ("[0-9a-f]"):rep(32) .. "%-" .. ("[0-9a-f]"):rep(16) .. "%-([0-9a-f][0-9a-f])$"
local T, P = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7" -- 3.2.3's example

-- parse_traceparent's nil, message for text, or a failure naming what it returned.
local function parse_fails(text, reason, where)
    local a, b, c = mintid.parse_traceparent(text)
    assert(c == nil, (where or text) .. ": parsed to " .. tostring(a) .. " " .. tostring(b) .. " " .. tostring(c))
    return h.assert_bad_data(a, b, reason, where or text)
end

describe("W3C Trace Context", function()
    describe("vectors", function()
        it("traceparent.txt: parse_traceparent gives the fields, traceparent the version-00 header", function()
            h.each_vector("traceparent.txt", { "header", "trace_id", "parent_id", "flags", "rebuilt" }, function(r, w)
                local trace_id, parent_id, flags = mintid.parse_traceparent(r.header)
                assert(trace_id ~= nil, w .. ": " .. tostring(parent_id))
                assert.are.equal(r.trace_id, trace_id, w)
                assert.are.equal(r.parent_id, parent_id, w)
                assert.are.equal(h.num(r.flags), flags, w)
                assert.are.equal(r.rebuilt, mintid.traceparent(trace_id, parent_id, flags), w)
            end)
        end)

        it("traceparent_invalid.txt: parse_traceparent returns nil and a one-line message with the reason", function()
            h.each_invalid("traceparent_invalid.txt", { parse_traceparent = mintid.parse_traceparent })
        end)
    end)

    describe("parse_traceparent, rule by rule (both sides of each boundary)", function()
        it("3.2.2.1: version ff is invalid, fe (the highest other) valid", function()
            parse_fails("ff-" .. T .. "-" .. P .. "-01", "invalid traceparent: version ff is invalid")
            assert.are.equal(T, (mintid.parse_traceparent("fe-" .. T .. "-" .. P .. "-01")))
        end)

        it("3.2.4: version 00 is exactly 55 characters; 54 and 56 are invalid", function()
            local header = "00-" .. T .. "-" .. P .. "-01"
            assert.are.equal(55, #header)
            assert.are.same({ T, P, 1 }, { mintid.parse_traceparent(header) })
            parse_fails(header:sub(1, 54), "invalid traceparent: length 54, want at least 55")
            parse_fails(header .. "-", "invalid traceparent: length 56, want 55 for version 00")
            parse_fails(header .. "0", "invalid traceparent: length 56, want 55 for version 00")
        end)

        it("3.2.4: a higher version may carry more after a '-', never right after the flags", function()
            local header = "01-" .. T .. "-" .. P .. "-01"
            assert.are.same({ T, P, 1 }, { mintid.parse_traceparent(header) })
            assert.are.same({ T, P, 1 }, { mintid.parse_traceparent(header .. "-") })
            assert.are.same({ T, P, 1 }, { mintid.parse_traceparent(header .. "-anything-at-all") })
            parse_fails(header .. "0", "invalid traceparent: want '-' at 56, got '0'")
            parse_fails(header:sub(1, 54), "invalid traceparent: length 54, want at least 55")
        end)

        it("3.2.2: every field is lowercase hex; uppercase is invalid", function()
            parse_fails("00-" .. T:upper() .. "-" .. P .. "-01", "bad character 'B' at 5 (want lowercase hex)")
            parse_fails("00-" .. T .. "-" .. P:upper() .. "-01", "bad character 'F' at 39 (want lowercase hex)")
            parse_fails("00-" .. T .. "-" .. P .. "-0A", "bad character 'A' at 55 (want lowercase hex)")
            parse_fails("0A-" .. T .. "-" .. P .. "-01", "bad character 'A' at 2 (want lowercase hex)")
            -- f is the last hex digit, g the first letter past it
            assert.are.equal(255, select(3, mintid.parse_traceparent("00-" .. T .. "-" .. P .. "-ff")))
            parse_fails("00-" .. T .. "-" .. P .. "-fg", "bad character 'g' at 55 (want lowercase hex)")
        end)

        it("3.2.2.3, 3.2.2.4: an all-zero trace-id or parent-id is invalid; one bit set is valid", function()
            local zt, zp = ("0"):rep(32), ("0"):rep(16)
            parse_fails("00-" .. zt .. "-" .. P .. "-01", "invalid traceparent: trace-id is all zero")
            parse_fails("00-" .. T .. "-" .. zp .. "-01", "invalid traceparent: parent-id is all zero")
            local t1, p1 = zt:sub(2) .. "1", zp:sub(2) .. "1"
            assert.are.same({ t1, p1, 0 }, { mintid.parse_traceparent("00-" .. t1 .. "-" .. p1 .. "-00") })
        end)

        it("3.2.2.5: flags are 8 bits returned as they came, the unknown ones too", function()
            for _, flags in ipairs({ 0, 1, 2, 3, 0x80, 0xff }) do
                local header = ("00-%s-%s-%02x"):format(T, P, flags)
                assert.are.equal(flags, select(3, mintid.parse_traceparent(header)), header)
            end
        end)
    end)

    describe("traceparent", function()
        it("builds a version-00 header of the given fields; flags default to 0", function()
            assert.are.equal("00-" .. T .. "-" .. P .. "-01", mintid.traceparent(T, P, 1))
            assert.are.equal("00-" .. T .. "-" .. P .. "-00", mintid.traceparent(T, P))
            assert.are.equal("00-" .. T .. "-" .. P .. "-ff", mintid.traceparent(T, P, 255))
            assert.are.equal("00-" .. T .. "-" .. P .. "-00", mintid.traceparent(T, P, 0))
            assert.are.equal("00-" .. T .. "-" .. P .. "-00", mintid.traceparent(T, P, nil))
        end)

        it("an omitted or nil id is fresh; the given one is kept; the random flag is never added", function()
            local header = mintid.traceparent()
            assert.are.equal("00", header:match(HEADER), header)
            local fresh_parent = mintid.traceparent(T, nil, 1)
            assert.are.equal("00-" .. T .. "-", fresh_parent:sub(1, 36))
            assert.are.equal("01", fresh_parent:match(HEADER))
            local fresh_trace = mintid.traceparent(nil, P, 3)
            assert.are.equal("-" .. P .. "-03", fresh_trace:sub(36))
            assert.are_not.equal(mintid.traceparent(), mintid.traceparent())
        end)

        it("a header it builds parses back to its fields", function()
            for _ = 1, 100 do
                local header = mintid.traceparent(nil, nil, 1)
                local trace_id, parent_id, flags = mintid.parse_traceparent(header)
                assert.are.equal(header, mintid.traceparent(trace_id, parent_id, flags))
            end
        end)

        it("an id that is not valid (length, case, hex, all zero) gives nil, message", function()
            h.each_bad_input(function(id) return mintid.traceparent(id) end, {
                { "", "invalid trace-id: length 0, want 32" },
                { T:sub(2), "invalid trace-id: length 31, want 32" },
                { T .. "0", "invalid trace-id: length 33, want 32" },
                { T:upper(), "invalid trace-id: bad character 'B' at 2 (want lowercase hex)" },
                { T:sub(1, 31) .. "g", "invalid trace-id: bad character 'g' at 32 (want lowercase hex)" },
                { ("0"):rep(32), "invalid trace-id: all zero" },
            })
            h.each_bad_input(function(id) return mintid.traceparent(T, id) end, {
                { P:sub(2), "invalid parent-id: length 15, want 16" },
                { P .. "0", "invalid parent-id: length 17, want 16" },
                { P:upper(), "invalid parent-id: bad character 'F' at 3 (want lowercase hex)" },
                { ("0"):rep(16), "invalid parent-id: all zero" },
                { "00f067aa0ba902b-", "invalid parent-id: bad character '-' at 16 (want lowercase hex)" },
            })
        end)
    end)

    describe("trace_id and span_id", function()
        it("are 32 and 16 lowercase hex characters", function()
            assert.is_truthy(mintid.trace_id():match(TRACE_ID))
            assert.is_truthy(mintid.span_id():match(SPAN_ID))
        end)

        it("are valid ids of a traceparent", function()
            local trace_id, span_id = mintid.trace_id(), mintid.span_id()
            assert.are.equal("00-" .. trace_id .. "-" .. span_id .. "-01", mintid.traceparent(trace_id, span_id, 1))
        end)
    end)

    describe("bad arguments", function()
        it("raise naming the argument", function()
            h.raises(function() return mintid.parse_traceparent() end, "bad argument #1", "string expected")
            h.raises(function() return mintid.parse_traceparent(55) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.traceparent(5) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.traceparent(T, 5) end, "bad argument #2", "string expected")
            h.raises(function() return mintid.traceparent(nil, nil, 256) end, "bad argument #3",
                "flags must be an integer 0..255, got 256")
            h.raises(function() return mintid.traceparent(nil, nil, -1) end, "bad argument #3",
                "flags must be an integer 0..255, got -1")
            h.raises(function() return mintid.traceparent(nil, nil, 1.5) end, "bad argument #3",
                "flags must be an integer 0..255, got 1.5")
            h.raises(function() return mintid.traceparent(nil, nil, "1") end, "bad argument #3",
                "flags must be an integer 0..255, got string")
        end)

        it("a bad flags argument fails before any id is checked", function()
            h.raises(function() return mintid.traceparent("bad", nil, 256) end, "bad argument #3")
        end)
    end)

    describe("properties", function()
        it("10^6 trace_ids and 10^6 span_ids without a repeat, none all zero", function()
            for _, c in ipairs({ { "trace_id", TRACE_ID }, { "span_id", SPAN_ID } }) do
                local make, seen = mintid[c[1]], {}
                local zero = ("0"):rep(c[1] == "trace_id" and 32 or 16)
                for i = 1, 1000000 do
                    local id = make()
                    if seen[id] or id == zero then error(c[1] .. ": call " .. i .. " gave " .. id .. " again", 0) end
                    seen[id] = true
                end
                assert.is_truthy(make():match(c[2]))
            end
        end)
    end)
end)
