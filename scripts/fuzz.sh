#!/usr/bin/env bash
# Runs the fuzz targets one after another (never two at once), each for RUNS
# executions (default 10 million), niced, growing a work corpus seeded from
# fuzz/corpus/<target>. Needs nightly Rust and cargo-fuzz (cargo install cargo-fuzz).
#
#   scripts/fuzz.sh                    # every target
#   RUNS=100000 scripts/fuzz.sh pdn    # one target, a short run
#
# Each target's libFuzzer log goes to $WORK/<target>.log, with its execution count and
# time on the last lines; a failing input is saved in fuzz/artifacts/<target>/ (copy it
# to fuzz/regressions/<target>/ with the fix). Afterwards, minimise the work corpus
# into the repository: cargo +nightly fuzz cmin <target> $WORK/<target>, then copy.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-10000000}
WORK=${WORK:-/tmp/damiera-fuzz}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(position pdn hub_session egdb weights)
fi
for t in "${targets[@]}"; do
    mkdir -p "$WORK/$t"
    args=(-runs="$RUNS" -print_final_stats=1 -timeout=10 -rss_limit_mb=1024)
    if [ -f "fuzz/dict/$t.dict" ]; then
        args+=(-dict="fuzz/dict/$t.dict")
    fi
    start=$(date +%s)
    status=0
    nice -n 19 cargo +nightly fuzz run --sanitizer none "$t" "$WORK/$t" "fuzz/corpus/$t" \
        -- "${args[@]}" > "$WORK/$t.log" 2>&1 || status=$?
    end=$(date +%s)
    echo "$t: exit $status, $((end - start)) s wall; $(grep -E '^Done [0-9]+ runs' "$WORK/$t.log" || echo 'not done')"
done
