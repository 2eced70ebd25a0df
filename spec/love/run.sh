#!/bin/sh
# make test-love: Debian's LÖVE 11 (LuaJIT) runs a game headless (conf.lua
# turns off the window, graphics and audio; SDL's dummy video and audio
# drivers), shipped as doc/guide.md "Game engines" says: the LuaJIT build
# of mintid.so beside the game folder, mintid's Lua files inside it. Its
# main.lua is the guide's block of that section as printed (package.cpath,
# a lock file lease in the save folder), then spec/love/game.lua. Two
# clients start at once with one save folder ($XDG_DATA_HOME in a
# temporary folder, fresh: LÖVE has not made it); each prints its TAP and
# quits with status 0 when its checks passed. Then the clients' save files
# are compared. Prints TAP.
BUILD=${BUILD:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) build=$BUILD ;; *) build=$root/$BUILD ;; esac
started=$(date +%s)
tmp=$(mktemp -d)
pid1=
pid2=
trap 'kill $pid1 $pid2 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
. "$root/spec/tap.sh"

if ! command -v love > /dev/null; then
    echo "not ok 1 - love is not installed (Debian's love package: make deps)"
    echo "1..1"
    exit 1
fi
if [ ! -f "$build/jit/mintid.so" ]; then
    echo "not ok 1 - $build/jit/mintid.so is not built (make $BUILD/jit/mintid.so)"
    echo "1..1"
    exit 1
fi

# The game as a user ships it: mintid.so beside the game folder, mintid's
# Lua files (resty.mintid, mintid.lease) inside it.
mkdir -p "$tmp/game" "$tmp/data"
# doc/guide.md "Game engines": its ```lua block, the game's first lines.
awk '/^## Game engines/ { in_section = 1; next } in_section && /^## / { exit }
     in_section && /^```lua/ { in_block = 1; next } in_block && /^```/ { exit } in_block' \
    "$root/doc/guide.md" > "$tmp/recipe.lua"
guide_block() {
    cat "$tmp/recipe.lua"
    grep -q '^package\.cpath = ' "$tmp/recipe.lua" && grep -q 'lease\.lock_file' "$tmp/recipe.lua"
}
check "doc/guide.md's Game engines block (package.cpath, a lock file lease) is the game's first lines" guide_block
cat "$tmp/recipe.lua" "$root/spec/love/game.lua" > "$tmp/game/main.lua"
cp "$root/spec/love/conf.lua" "$tmp/game/"
cp -R "$root/lua/resty" "$root/lua/mintid" "$tmp/game/"
cp "$build/jit/mintid.so" "$tmp/"

# Two clients started together, 60 s at most each.
client() {
    XDG_DATA_HOME=$tmp/data SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
        exec timeout 60 love "$tmp/game" "$1" > "$tmp/client$1.out" 2>&1
}
client 1 &
pid1=$!
client 2 &
pid2=$!
wait "$pid1"
echo $? > "$tmp/client1.status"
wait "$pid2"
echo $? > "$tmp/client2.status"
pid1=
pid2=

# Each client's TAP, numbered here; its exit status.
for client in 1 2; do
    while IFS= read -r line; do
        case $line in
            "ok - "*) n=$((n + 1)); echo "ok $n - ${line#ok - }" ;;
            "not ok - "*) n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - ${line#not ok - }" ;;
            "#"*) echo "$line" ;;
            *) echo "# $line" ;;
        esac
    done < "$tmp/client$client.out"
    check "client $client: love quits with status 0" sh -c \
        "status=\$(cat '$tmp/client$client.status'); echo \"status \$status\"; [ \"\$status\" = 0 ]"
done

save=$tmp/data/love/mintid-test
# no_repeats: no ID in both clients' save files
no_repeats() {
    repeated=$(grep -hv '^naive ' "$save/entities-1.save" "$save/entities-2.save" | awk '{ print $1, $3 }' |
        sort | uniq -d | head -n 5)
    echo "$repeated"
    [ -z "$repeated" ] && [ -s "$save/entities-1.save" ] && [ -s "$save/entities-2.save" ]
}
check "the two clients' entity IDs never meet (ULID, Nano ID, Snowflake)" no_repeats
# The clients held different machine ids of the lock file.
machines() {
    for client in 1 2; do
        LUA_CPATH="$build/jit/?.so;;" luajit - "$save/entities-$client.save" <<'LUA'
local mintid = require "mintid"
for line in io.lines(arg[1]) do
    local id = line:match("^snowflake %a+ (%d+)$")
    if id then
        local _, machine_id = mintid.parse_snowflake(id)
        print(machine_id)
        return
    end
end
LUA
    done
}
ids=$(machines | tr '\n' ' ')
check "the two clients minted Snowflake IDs with machine ids of their own ($ids)" \
    sh -c "set -- $ids; [ \$# -eq 2 ] && [ \"\$1\" != \"\$2\" ]"
# Why games need more than math.random: the clients' "random" IDs match.
naive=$(cat "$save/entities-1.save" "$save/entities-2.save" 2>/dev/null | sed -n 's/^naive math //p' | tr '\n' ' ')
check "math.random's entity IDs of the two clients are the same ($naive): one seed in every process" \
    sh -c "set -- $naive; [ \$# -eq 2 ] && [ \"\$1\" = \"\$2\" ]"

echo "# test-love took $(($(date +%s) - started)) s"
tap_done
