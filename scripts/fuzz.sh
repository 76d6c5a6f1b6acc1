#!/usr/bin/env bash
# Runs the fuzz targets one after another (never two at once), each for RUNS
# executions (default 10 million) or SECS seconds if set, niced (NICE, default 15),
# growing a work corpus seeded from fuzz/corpus/<target>. An input running longer than
# TIMEOUT seconds (default 10) is a failure; raise it to pause a fuzzer (kill -STOP) for
# longer than that without a false timeout. Needs nightly Rust and
# cargo-fuzz (cargo install cargo-fuzz).
#
#   scripts/fuzz.sh                    # every target, 10 million runs each
#   RUNS=100000 scripts/fuzz.sh pdn    # one target, a short run
#   SECS=600 scripts/fuzz.sh           # every target, ten minutes each
#
# Each target's libFuzzer log goes to $WORK/<target>.log, with its execution count and
# time on the last lines; the summary line (runs, wall and CPU seconds) is printed and
# appended to $WORK/summary. A failing input is saved in fuzz/artifacts/<target>/ (copy
# it to fuzz/regressions/<target>/ with the fix). Afterwards, minimise the work corpus
# into the repository: cargo +nightly fuzz cmin <target> $WORK/<target>, then copy.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-10000000}
WORK=${WORK:-/tmp/damiera-fuzz}
NICE=${NICE:-15}
TIMEOUT=${TIMEOUT:-10}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(position pdn hub_session egdb book weights web_api)
fi
cargo +nightly fuzz build --sanitizer none
# Allocations of a few hundred KB per execution (the weights target's 236 KB file) would
# otherwise each be an mmap and a munmap: page faults were a sixth of that target's time.
export GLIBC_TUNABLES=${GLIBC_TUNABLES:-glibc.malloc.mmap_threshold=4194304:glibc.malloc.trim_threshold=67108864}
for t in "${targets[@]}"; do
    mkdir -p "$WORK/$t"
    args=(-print_final_stats=1 -timeout="$TIMEOUT" -rss_limit_mb=1024)
    if [ -n "${SECS:-}" ]; then
        args+=(-max_total_time="$SECS")
    else
        args+=(-runs="$RUNS")
    fi
    if [ -f "fuzz/dict/$t.dict" ]; then
        args+=(-dict="fuzz/dict/$t.dict")
    fi
    start=$(date +%s)
    status=0
    # CPU seconds of the fuzzer, beside the wall time (the machine may be shared).
    /usr/bin/time -o "$WORK/$t.cpu" -f '%U %S' nice -n "$NICE" cargo +nightly fuzz run \
        --sanitizer none "$t" "$WORK/$t" "fuzz/corpus/$t" -- "${args[@]}" \
        > "$WORK/$t.log" 2>&1 || status=$?
    cpu=$(tail -n 1 "$WORK/$t.cpu" | awk '{print $1 + $2}')
    end=$(date +%s)
    runs=$(grep -E '^stat::number_of_executed_units' "$WORK/$t.log" | awk '{print $2}' || true)
    line="$t: exit $status, ${runs:-?} runs, $((end - start)) s wall, ${cpu:-?} s CPU"
    echo "$line" | tee -a "$WORK/summary"
done
