# spec/tap.sh: TAP for the shell suites, sourced by them.
# check NAME COMMAND...: one test, "ok"/"not ok" with the command's output
# as comments when it fails; tap_done prints the plan and fails if any did.
# tap_count reads the TAP another program printed (the runners of stages).
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

# tap_count NAME STATUS FILE: the "ok" and "not ok" lines in FILE, the TAP
# of the run NAME that exited with STATUS, into $ok and $notok. A run that
# exits non-zero without a failing test, or runs no test, counts as one
# failure, said in a comment.
tap_count() {
    ok=$(grep -c '^ok ' "$3")
    notok=$(grep -c '^not ok ' "$3")
    if [ "$2" -ne 0 ] && [ "$notok" -eq 0 ]; then
        echo "# $1 exited with status $2 without a failing test: counted as a failure"
        notok=1
    fi
    if [ $((ok + notok)) -eq 0 ]; then
        echo "# $1 ran no test: counted as a failure"
        notok=1
    fi
}
