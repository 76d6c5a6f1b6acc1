#!/usr/bin/env bash
# Time to depth of the Lazy SMP search: `damiera bench` (ten positions, each from an empty
# table, to a fixed depth) with 1 and with THREADS threads, alternated ROUNDS times; prints
# each run's total search time and nodes, the ratio of the summed times (1-thread time /
# N-thread time; higher is better), with the load average before and after, and the
# node-count estimate THREADS x (1-thread nodes / N-thread nodes), the ratio the threads
# would reach if each ran as fast as one thread alone (the wall-clock ratio is only
# meaningful on an otherwise idle machine).
#
#   scripts/smp-ttd.sh [DEPTH] [ROUNDS] [THREADS]      (defaults 16 5 2)
#
# DAMIERA names the binary (default target/release/damiera).
set -euo pipefail
depth=${1:-16} rounds=${2:-5} threads=${3:-2}
DAMIERA=${DAMIERA:-target/release/damiera}
# Prints "<total time_ms> <total nodes>" of one bench run.
run_bench() {
    "$DAMIERA" bench --depth "$depth" --threads "$1" |
        awk '/^position/ { for (i = 1; i < NF; i++) if ($i == "time_ms") t += $(i + 1) }
             /^bench/ { n = $2 } END { print t, n }'
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
one=0 many=0 one_nodes=0 many_nodes=0
for r in $(seq 1 "$rounds"); do
    read -r a an < <(run_bench 1)
    read -r b bn < <(run_bench "$threads")
    echo "round $r: 1 thread ${a} ms ${an} nodes, $threads threads ${b} ms ${bn} nodes, ratio $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')"
    one=$((one + a)) many=$((many + b))
    one_nodes=$((one_nodes + an)) many_nodes=$((many_nodes + bn))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v a="$one" -v b="$many" -v t="$threads" -v d="$depth" -v an="$one_nodes" -v bn="$many_nodes" \
    'BEGIN { printf "depth %d: 1 thread %d ms, %d threads %d ms: time-to-depth ratio %.2fx; node estimate %.2fx\n", d, a, t, b, a / b, t * an / bn }'
