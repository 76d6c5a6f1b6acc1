#!/usr/bin/env bash
# Makes and measures the learned evaluation of one variant (english, russian or brazilian),
# as the shipped src/search/eval/VARIANT.dmw was made (docs/training.md):
#
#   scripts/variant-evals.sh VARIANT [SLICES]
#
# 1. generation 0 data: the hand-made evaluation of the variant playing itself, 100 games
#    a slice at 3000 nodes a move, from every position 4 plies after the start plus 0-4
#    random plies (resumable: scripts/selfplay-slices.sh skips the slices already done);
# 2. generation 1 weights fitted to the first SLICES slices (default all 20);
# 3. 400 games at 2000 nodes a move, generation 1 against the hand-made evaluation
#    (tests/variant_strength.rs; resumable too), its result printed at the end.
#
# DAMIERA names the binary (default target/release/damiera). Work files go to
# variant-evals/ (not committed); copy variant-evals/VARIANT-gen1.dmw to
# src/search/eval/VARIANT.dmw to ship it.
set -euo pipefail
v=${1:?usage: $0 english|russian|brazilian [SLICES]}
slices=${2:-20}
B=${DAMIERA:-target/release/damiera}
dir=variant-evals
mkdir -p "$dir"
DAMIERA=$B nice -n 10 scripts/selfplay-slices.sh "$dir/$v-gen0" 20 1 \
    --variant "$v" --style hce --games 2000 --nodes 3000 --seed 11 || true
parts=()
for k in $(seq 1 "$slices"); do
    parts+=("$(printf '%s/%s-gen0/part-%05d.bin' "$dir" "$v" "$k")")
done
nice -n 10 "$B" train "${parts[@]}" -o "$dir/$v-gen1.dmw" --threads 1
VARIANT=$v EVAL_FILE=$dir/$v-gen1.dmw GAMES=400 NODES=2000 SEED=1 OUT=$dir/$v-match.txt \
    nice -n 10 cargo test --release --test variant_strength -- --ignored --nocapture
