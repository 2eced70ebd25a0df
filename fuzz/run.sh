#!/bin/sh
# Runs each libFuzzer target for FUZZ_SECONDS (one job) on its corpus
# ($BUILD/fuzz/corpus/<target>: the seeds from testdata/, plus what earlier
# runs found), printing one TAP line per target with its time. A crash, a
# failed property (abort), a leak, or one input slower than FUZZ_TIMEOUT
# seconds (a hang) fails the target: the input is kept as
# $BUILD/fuzz/artifacts/<target>-crash-<sha1> (or -timeout-, -leak-) and the
# end of the target's output is shown. FUZZ_JOBS targets (one per core by
# default) run at a time: each still gets its FUZZ_SECONDS, the stage's
# time is divided by them.
BUILD=${BUILD:-build}
FUZZ_SECONDS=${FUZZ_SECONDS:-16}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-5}
FUZZ_TARGETS=${FUZZ_TARGETS:-ulid_decode uuid_decode relative_decode snowflake_decode snowflake_layout ksuid_decode short_uuid_decode objectid_decode xid_decode typeid_decode traceparent_decode nanoid roundtrip generators cuid2 sqids_decode}
FUZZ_JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
mkdir -p "$BUILD/fuzz/artifacts" "$BUILD/fuzz/logs"

# fuzz_one N TARGET: the target's run; its TAP line (and on failure the end
# of its output) to $BUILD/fuzz/logs/TARGET.tap, printed in order below.
fuzz_one() {
    n=$1 t=$2
    log=$BUILD/fuzz/logs/$t.log
    mkdir -p "$BUILD/fuzz/corpus/$t"
    start=$(date +%s)
    "$BUILD/fuzz/$t" -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" \
        -artifact_prefix="$BUILD/fuzz/artifacts/$t-" -print_final_stats=1 \
        "$BUILD/fuzz/corpus/$t" > "$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    if [ "$rc" -eq 0 ]; then
        echo "ok $n - fuzz $t: ${runs:-?} inputs in ${secs}s"
    else
        echo "not ok $n - fuzz $t: exit status $rc after ${secs}s (whole output: $log)"
        tail -n 40 "$log" | sed 's/^/# /'
    fi > "$BUILD/fuzz/logs/$t.tap"
}

n=0
running=0
began=$(date +%s)
for t in $FUZZ_TARGETS; do
    n=$((n + 1))
    rm -f "$BUILD/fuzz/logs/$t.tap"
    fuzz_one "$n" "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$FUZZ_JOBS" ]; then
        wait
        running=0
    fi
done
wait
failed=0
k=0
for t in $FUZZ_TARGETS; do
    k=$((k + 1))
    tap=$BUILD/fuzz/logs/$t.tap
    if [ ! -f "$tap" ]; then
        echo "not ok $k - fuzz $t: no result (the run was killed?)" > "$tap"
    fi
    cat "$tap"
    if grep -q '^not ok' "$tap"; then
        failed=$((failed + 1))
    fi
done
echo "1..$n"
echo "# fuzzing took $(($(date +%s) - began)) s"
[ "$failed" -eq 0 ]
