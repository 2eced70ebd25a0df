-- IDs as keys in a real SQLite database, through LuaSQL (doc/guide.md "IDs in
-- databases"). Run by spec/run.sh under one Lua that Debian's
-- lua-sql-sqlite3 is built for; a missing driver fails, it is not skipped.
local mintid = require "mintid"
local db = require "db.common"

local driver = require "luasql.sqlite3"

describe("SQLite (LuaSQL)", function()
    local env, conn, path

    -- One row result of a query, or all of them with `all`.
    local function query(sql, all)
        local rows = db.rows(conn, sql)
        if all then return rows end
        return rows[1]
    end

    local function exec(sql)
        return assert(conn:execute(sql))
    end

    setup(function()
        path = os.tmpname()
        os.remove(path)
        env = assert(driver.sqlite3())
        conn = assert(env:connect(path))
    end)

    teardown(function()
        if conn then conn:close() end
        if env then env:close() end
        if path then os.remove(path) end
    end)

    -- Each kind of time-ordered ID, as TEXT and as a BLOB primary key (16
    -- bytes; a KSUID's 20; a TypeID's UUID, its prefix being the table's).
    for _, kind in ipairs(db.ordered_kinds()) do
        for _, column in ipairs({ "TEXT", "BLOB" }) do
            it(kind.name .. " as a " .. column .. " primary key: ORDER BY id is time order", function()
                local rows = db.minted_rows(kind)
                local tbl = kind.name .. "_" .. column:lower()
                exec(("CREATE TABLE %s (id %s PRIMARY KEY, n INTEGER NOT NULL, ms INTEGER NOT NULL)")
                    :format(tbl, column))
                exec("BEGIN")
                for _, r in ipairs(db.shuffled(rows)) do
                    local key = column == "TEXT" and db.quote(r.id) or ("X'" .. db.hex(r.bytes) .. "'")
                    exec(("INSERT INTO %s (id, n, ms) VALUES (%s, %d, %.0f)"):format(tbl, key, r.n, r.ms))
                end
                exec("COMMIT")
                if column == "BLOB" then
                    local r = query(("SELECT length(id) AS len, typeof(id) AS type FROM %s LIMIT 1"):format(tbl))
                    assert.are.same({ len = kind.size, type = "blob" }, { len = tonumber(r.len), type = r.type })
                end
                local got = query(("SELECT n, ms FROM %s ORDER BY id"):format(tbl), true)
                db.assert_time_order(rows, got, tbl)
            end)
        end
    end

    it("relative IDs: id >= lo AND id < hi is one key's rows in time order, through the index", function()
        local g, rows, keys = db.relative_rows()
        exec("CREATE TABLE orders (id TEXT PRIMARY KEY, customer TEXT NOT NULL, n INTEGER NOT NULL)")
        exec("BEGIN")
        for _, r in ipairs(db.shuffled(rows)) do
            exec(("INSERT INTO orders (id, customer, n) VALUES (%s, %s, %d)")
                :format(db.quote(r.id), db.quote(r.key), r.n))
        end
        exec("COMMIT")
        for _, key in ipairs(keys) do
            local lo, hi = mintid.relative_range(g:prefix(key))
            local where = ("id >= %s AND id < %s"):format(db.quote(lo), db.quote(hi))
            local got = query("SELECT id, customer, n FROM orders WHERE " .. where .. " ORDER BY id", true)
            db.assert_one_key(rows, key, got)
            local plan = query("EXPLAIN QUERY PLAN SELECT id, customer, n FROM orders WHERE " .. where
                .. " ORDER BY id", true)
            local details = {}
            for _, p in ipairs(plan) do details[#details + 1] = p.detail end
            local text = table.concat(details, "; ")
            assert.is_truthy(text:find("SEARCH orders USING", 1, true), "want an index SEARCH: " .. text)
            assert.is_falsy(text:find("SCAN", 1, true), "want no SCAN: " .. text)
        end
    end)
end)
