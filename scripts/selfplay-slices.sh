#!/usr/bin/env bash
# Runs the slices of one self-play run on this machine, JOBS at a time, skipping slices
# already done, so an interrupted run resumes where it stopped (a slice is written under
# a temporary name and renamed when complete). When every slice is there, joins them:
# DIR.bin is then byte for byte the file one `damiera selfplay` of the whole run writes.
#
#   scripts/selfplay-slices.sh DIR N JOBS [selfplay options: --games G --seed S ...]
#
# DAMIERA names the binary (default target/release/damiera). Every slice of a run must
# come from the same build and options. Progress lines go to DIR/log.txt.
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 DIR N JOBS [selfplay options...]" >&2
    exit 2
fi
dir=$1 n=$2 jobs=$3
shift 3
DAMIERA=${DAMIERA:-target/release/damiera}
mkdir -p "$dir"
run_slice() {
    local k=$1
    shift
    local f
    f=$(printf '%s/part-%05d.bin' "$dir" "$k")
    [ -e "$f" ] && return 0
    "$DAMIERA" selfplay --quiet --shard "$k/$n" -o "$f" "$@" >> "$dir/log.txt"
}
export -f run_slice
export dir n DAMIERA
seq 1 "$n" | xargs -P "$jobs" -I{} bash -c 'run_slice "$@"' _ {} "$@" || true
missing=0
for k in $(seq 1 "$n"); do
    [ -e "$(printf '%s/part-%05d.bin' "$dir" "$k")" ] || missing=$((missing + 1))
done
if [ "$missing" -gt 0 ]; then
    echo "$missing of $n slices missing: run the same command again" >&2
    exit 1
fi
cat "$dir"/part-*.bin > "$dir.bin.partial"
mv "$dir.bin.partial" "$dir.bin"
echo "$dir.bin: $(( ($(stat -c %s "$dir.bin") - 16) / 20 )) positions"
