# ---- the database specs (spec/db): IDs stored and ordered in SQLite and in
# a throwaway PostgreSQL cluster (spec/db/with_postgres.sh), through LuaSQL,
# which Debian builds for 5.1-5.4: they run once, under DB_LUA, on the
# module built for it.
DB_LUA ?= 5.4
TEST_DEPS += $(BUILD)/$(DB_LUA)/mintid.so
RUN_ENV   += DB_LUA='$(DB_LUA)'
