-- Properties under load, with the OS clock and the OS random source.
local h = require "helper"
local mintid = require(h.module_name)

describe("properties under load", function()
    it("100,000 mintid.ulid() are unique and strictly increasing", function()
        h.assert_strictly_increasing(mintid.ulid, 100000, h.ULID_PATTERN, "mintid.ulid()")
    end)

    it("100,000 mintid.uuid7() are unique and strictly increasing, all version 7", function()
        local function next7()
            local id = mintid.uuid7()
            if id:sub(15, 15) ~= "7" or not id:sub(20, 20):match("[89ab]") then
                error("not a UUIDv7: " .. id, 0)
            end
            return id
        end
        h.assert_strictly_increasing(next7, 100000, h.UUID_PATTERN, "mintid.uuid7()")
    end)

    it("100,000 IDs of one ULID and one UUIDv7 generator are strictly increasing", function()
        local gu, g7 = mintid.ulid_generator(), mintid.uuid7_generator()
        h.assert_strictly_increasing(function() return gu:next() end, 100000, h.ULID_PATTERN, "ulid_generator")
        h.assert_strictly_increasing(function() return g7:next() end, 100000, h.UUID_PATTERN, "uuid7_generator")
    end)

    it("10,000 mintid.uuid4() have the version and variant bits and are unique", function()
        local seen = {}
        local variants = {}
        for _ = 1, 10000 do
            local id = mintid.uuid4()
            assert(id:match(h.UUID_PATTERN), id)
            assert(id:sub(15, 15) == "4", "version of " .. id)
            local v = id:sub(20, 20)
            assert(v:match("^[89ab]$"), "variant of " .. id)
            variants[v] = true
            assert(not seen[id], "repeated " .. id)
            seen[id] = true
            local u = mintid.parse_uuid(id)
            assert(u:version() == 4 and u:time() == nil, id)
        end
        -- the two variant bits below the fixed ones are random: all four digits occur
        for _, d in ipairs({ "8", "9", "a", "b" }) do assert.is_true(variants[d], "variant digit " .. d) end
    end)

    it("10,000 relative IDs of one generator for a handful of keys: unique, each key's strictly increasing under its own prefix", function()
        local g = mintid.relative_generator { secret = "a secret from the key store", salt = "orders" }
        local keys = { "customer-1", "customer-2", "customer-3", "tenant/9", "" }
        local prev, seen = {}, {}
        for i = 1, 10000 do
            local key = keys[i % #keys + 1]
            local id = g:next(key)
            assert(id:match(h.RELATIVE_PATTERN), id)
            assert(id:sub(1, 7) == g:prefix(key), id)
            assert(not seen[id], "repeated " .. id)
            seen[id] = true
            if prev[key] then
                assert(h.bytes_cmp(prev[key], id) < 0, prev[key] .. " !< " .. id)
            end
            prev[key] = id
        end
        -- each key its own prefix (the tags of fixed keys under a fixed
        -- secret, so no luck is involved): a key's range scan finds no other's
        local key_of = {}
        for _, key in ipairs(keys) do
            local prefix = prev[key]:sub(1, 7)
            assert.is_nil(key_of[prefix], "keys '" .. tostring(key_of[prefix]) .. "' and '" .. key .. "' share " .. prefix)
            key_of[prefix] = key
        end
    end)

    it("Nano IDs use only their alphabet, at their size, and every symbol occurs", function()
        local allowed, hits = {}, {}
        for i = 1, #h.DEFAULT_ALPHABET do allowed[h.DEFAULT_ALPHABET:sub(i, i)] = true end
        local seen = {}
        for _ = 1, 10000 do
            local id = mintid.nanoid()
            assert(#id == 21, id)
            for i = 1, 21 do
                local ch = id:sub(i, i)
                assert(allowed[ch], "symbol " .. ch .. " outside the default alphabet in " .. id)
                hits[ch] = true
            end
            assert(not seen[id], "repeated " .. id)
            seen[id] = true
        end
        for i = 1, #h.DEFAULT_ALPHABET do
            assert.is_true(hits[h.DEFAULT_ALPHABET:sub(i, i)], "symbol " .. h.DEFAULT_ALPHABET:sub(i, i) .. " never drawn")
        end
        -- a custom alphabet whose size is not a power of two (rejection sampling)
        local g = mintid.nanoid_generator { size = 30, alphabet = "0123456789" }
        local digit_hits = {}
        for _ = 1, 2000 do
            local id = g:next()
            assert(#id == 30 and id:match("^%d+$"), id)
            for i = 1, 30 do digit_hits[id:sub(i, i)] = true end
        end
        for d = 0, 9 do assert.is_true(digit_hits[tostring(d)], "digit " .. d) end
    end)

    it("100,000 snowflake IDs of one generator are strictly increasing (through the 4096-per-ms wait)", function()
        -- a recent epoch keeps bit 63 clear long after 2039 (epoch 0's limit)
        local epoch = 1288834974657
        local g = mintid.snowflake_generator { machine_id = 5, epoch = epoch }
        local prev = g:next()
        local first_ts = h.snowflake_parts(prev, epoch)
        for _ = 2, 100000 do
            local id = g:next()
            if h.dec_cmp(prev, id) >= 0 then error(h.dec(prev) .. " !< " .. h.dec(id), 0) end
            prev = id
        end
        local last_ts, mid = h.snowflake_parts(prev, epoch)
        assert.are.equal(5, mid)
        -- 4096 per ms at most: 100,000 IDs span at least 24 ms
        assert.is_true(last_ts - first_ts >= 24, "100,000 IDs within " .. tostring(last_ts - first_ts) .. " ms")
    end)
end)
