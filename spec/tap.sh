# spec/tap.sh: TAP for the shell suites, sourced by them.
# check NAME COMMAND...: one test, "ok"/"not ok" with the command's output
# as comments when it fails; tap_done prints the plan and fails if any did.
n=0
fails=0
check() {
    name=$1; shift
    n=$((n + 1))
    if out=$("$@" 2>&1); then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name"
        echo "$out" | sed 's/^/# /'
        fails=$((fails + 1))
    fi
}
tap_done() {
    echo "1..$n"
    [ "$fails" -eq 0 ]
}
