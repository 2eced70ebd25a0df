-- IDs as keys in a real PostgreSQL, through LuaSQL (doc/guide.md "IDs in
-- databases"). spec/db/with_postgres.sh starts a throwaway cluster and gives
-- its connection string in MINTID_PG; without it this spec fails, it does not
-- skip.
local mintid = require "mintid"
local db = require "db.common"

local driver = require "luasql.postgres"
local h = require "helper"

describe("PostgreSQL (LuaSQL)", function()
    local env, conn

    local function query(sql)
        return db.rows(conn, sql)
    end

    local function exec(sql)
        return assert(conn:execute(sql))
    end

    -- Many rows per statement: one round trip per batch.
    local function insert(tbl, columns, rows, values)
        for first = 1, #rows, 500 do
            local list = {}
            for i = first, math.min(first + 499, #rows) do list[#list + 1] = "(" .. values(rows[i]) .. ")" end
            exec(("INSERT INTO %s (%s) VALUES %s"):format(tbl, columns, table.concat(list, ", ")))
        end
    end

    setup(function()
        local conninfo = assert(os.getenv("MINTID_PG"), "MINTID_PG is not set: run me through spec/db/with_postgres.sh")
        env = assert(driver.postgres())
        conn = assert(env:connect(conninfo))
    end)

    teardown(function()
        if conn then conn:close() end
        if env then env:close() end
    end)

    -- Rows minted in order, stored shuffled in table `tbl` keyed by a column
    -- of `id_type` (the ID as key(r.id), default as it is), then read back
    -- by ORDER BY id: the minted order.
    local function stored_in_time_order(tbl, id_type, rows, key)
        exec(("CREATE TABLE %s (id %s PRIMARY KEY, n integer NOT NULL, ms bigint NOT NULL)"):format(tbl, id_type))
        insert(tbl, "id, n, ms", db.shuffled(rows), function(r)
            return ("%s, %d, %.0f"):format(db.quote(key and assert(key(r.id)) or r.id), r.n, r.ms)
        end)
        db.assert_time_order(rows, query(("SELECT n, ms FROM %s ORDER BY id"):format(tbl)), tbl)
    end

    local function stored_id(tbl, n)
        return query(("SELECT id FROM %s WHERE n = %d"):format(tbl, n))[1].id
    end

    for _, name in ipairs({ "uuid7", "uuid6" }) do
        it(name .. "s in a native uuid column: ORDER BY id is time order", function()
            local rows = db.minted_rows(db.kind(name))
            stored_in_time_order(name .. "_events", "uuid", rows)
            -- PostgreSQL prints a uuid as the same lowercase text
            assert.are.equal(rows[1].id, stored_id(name .. "_events", 1))
        end)
    end

    it("ULIDs through ulid_to_uuid in a native uuid column: ORDER BY id is time order", function()
        local rows = db.minted_rows(db.kind("ulid"))
        stored_in_time_order("ulid_events", "uuid", rows, mintid.ulid_to_uuid)
        assert.are.equal(rows[1].id, mintid.uuid_to_ulid(stored_id("ulid_events", 1)))
    end)

    it("KSUIDs in a text COLLATE \"C\" key: ORDER BY id is time order (a locale's collation is not)", function()
        local rows = db.minted_rows(db.kind("ksuid"))
        stored_in_time_order("ksuid_events", 'text COLLATE "C"', rows)
        -- base62 mixes cases: a linguistic collation ("a" before "B") mixes
        -- up 400 KSUIDs of 8 seconds (it would take all of them to keep
        -- their case boundaries apart)
        local icu = query([[SELECT n, ms FROM ksuid_events ORDER BY id COLLATE "en-x-icu"]])
        assert.has_error(function() db.assert_time_order(rows, icu, "en-x-icu") end)
    end)

    it("TypeIDs in a text COLLATE \"C\" key, and as prefix + native uuid: both in time order", function()
        local kind = db.kind("typeid")
        local rows = db.minted_rows(kind)
        stored_in_time_order("users", 'text COLLATE "C"', rows)
        -- the prefix is the table's: the 16 bytes alone in a uuid column
        stored_in_time_order("users_uuid", "uuid", rows, function(id)
            return tostring(assert(mintid.parse_typeid(id)):uuid())
        end)
        assert.are.equal(rows[1].id, mintid.typeid_from(kind.prefix, stored_id("users_uuid", 1)))
    end)

    -- parse_uuid(text, "lenient") takes exactly what the uuid type's input
    -- takes (doc/reference.md), asked of this server: the vectors of
    -- testdata/uuid_lenient.txt but the urn:uuid: ones (PostgreSQL has no
    -- URN form), and a '-' at every place in 32 digits, braced and not.
    it("parse_uuid(text, \"lenient\") accepts what the uuid type accepts, as the same UUID, and only that",
        function()
            local texts = {}
            h.each_vector("uuid_lenient.txt", { "input", "canonical" }, function(r)
                if not r.input:lower():find("urn:uuid:", 1, true) then texts[#texts + 1] = r.input end
            end)
            local digits = "A0eebc999c0b4ef8bb6d6bb9bd380a11"
            for at = 0, 32 do
                local text = digits:sub(1, at) .. "-" .. digits:sub(at + 1)
                texts[#texts + 1] = text
                texts[#texts + 1] = "{" .. text .. "}"
                texts[#texts + 1] = digits:sub(1, at) .. "--" .. digits:sub(at + 1)
            end
            local accepted = 0
            for _, text in ipairs(texts) do
                local ours = mintid.parse_uuid(text, "lenient")
                local cur = conn:execute(("SELECT %s::uuid AS id"):format(db.quote(text)))
                local theirs = cur and cur:fetch({}, "a").id
                if cur then cur:close() end
                assert.are.equal(theirs, ours and tostring(ours), text)
                if theirs then accepted = accepted + 1 end
            end
            assert.is_true(accepted >= 20 and accepted < #texts, "both kinds of forms tried")
        end)

    it("relative IDs in a text COLLATE \"C\" key: the range is one key's rows, by an index scan", function()
        -- 200 keys: one key's range is 0.5% of the table, so the planner
        -- chooses the btree index on its own (no enable_seqscan = off).
        local g, rows, keys = db.relative_rows(200, 20)
        exec('CREATE TABLE orders (id text COLLATE "C" PRIMARY KEY, customer text NOT NULL, n integer NOT NULL)')
        insert("orders", "id, customer, n", db.shuffled(rows), function(r)
            return ("%s, %s, %d"):format(db.quote(r.id), db.quote(r.key), r.n)
        end)
        exec("VACUUM ANALYZE orders")
        for _, key in ipairs({ keys[1], keys[17], keys[200] }) do
            local lo, hi = mintid.relative_range(g:prefix(key))
            local sql = ("SELECT id, customer, n FROM orders WHERE id >= %s AND id < %s ORDER BY id")
                :format(db.quote(lo), db.quote(hi))
            db.assert_one_key(rows, key, query(sql))
            local plan = {}
            for _, r in ipairs(query("EXPLAIN " .. sql)) do plan[#plan + 1] = r["QUERY PLAN"] end
            local text = table.concat(plan, "\n")
            assert.is_truthy(text:find("Index Scan using orders_pkey", 1, true)
                or text:find("Index Only Scan using orders_pkey", 1, true), "want an index scan:\n" .. text)
            assert.is_falsy(text:find("Seq Scan", 1, true), text)
        end
        -- the same range with LIKE on the prefix
        local prefix = g:prefix(keys[2])
        local like = query(("SELECT id, customer, n FROM orders WHERE id LIKE %s ORDER BY id")
            :format(db.quote(prefix .. "%")))
        db.assert_one_key(rows, keys[2], like)
    end)
end)
