#!/usr/bin/env bash
# Makes and measures the learned evaluation of one game (any but Italian: english, russian,
# brazilian, pool, czech, spanish, thai, damka),
# as the shipped crates/engine/src/search/eval/VARIANT.dmw was made (docs/training.md):
#
#   scripts/variant-evals.sh VARIANT
#
# Four generations, each matched before the next is built on it:
# 1. gen0 data: the hand-made evaluation playing itself (20 slices of 100 games, 3000
#    nodes a move, from every position 4 plies after the start plus 0-4 random plies);
#    gen1 fitted to it;
# 2. gen1 data: gen1 playing itself (20 slices); gen2 fitted to gen0 and gen1 data;
#    gen2 against gen1 (400 games at 2000 nodes a move, `damiera match`, the openings
#    every position 3 plies after the start);
# 3. gen2 data: the better of gen2 and gen1 playing itself (40 slices); gen3 fitted to
#    all the data; gen3 against that one;
# 4. gen3 data: the best so far playing itself (40 slices); gen4 fitted to all the data;
#    gen4 against the best so far; the best against the hand-made start.
#
# Every step is resumable: scripts/selfplay-slices.sh skips the slices already done, a
# weights file already there is kept. DAMIERA names the binary (default
# target/release/damiera). Work files go to variant-evals/ (not committed); copy the best
# variant-evals/VARIANT-genN.dmw to crates/engine/src/search/eval/VARIANT.dmw to ship it.
set -euo pipefail
v=${1:?usage: $0 GAME (english, russian, brazilian, pool, czech, spanish, thai or damka)}
B=$(realpath "${DAMIERA:-target/release/damiera}")
D=variant-evals
mkdir -p "$D"

slices() { # dir count seed [selfplay options]
    local dir=$1 n=$2 seed=$3
    shift 3
    DAMIERA=$B nice -n 10 scripts/selfplay-slices.sh "$D/$v-$dir" "$n" 1 \
        --variant "$v" --games $((n * 100)) --nodes 3000 --seed "$seed" "$@"
}
parts() { # dir count
    for k in $(seq 1 "$2"); do printf '%s/%s-%s/part-%05d.bin ' "$D" "$v" "$1" "$k"; done
}
train() { # out data...
    local out=$1
    shift
    [ -e "$out" ] || nice -n 10 "$B" train "$@" -o "$out" --threads 1
}
match() { # name-a weights-a name-b engine-b-option seed -> prints the Elo of A
    local out="$D/$v-$1-vs-$3"
    nice -n 10 "$B" match --variant "$v" --engine cmd="$B" name="$1" option.eval-file="$2" \
        --engine cmd="$B" name="$3" "$4" --openings builtin:3ply --games 400 --nodes 2000 \
        --seed "$5" --quiet --pdn "$out.pdn" > "$out.txt" 2>&1
    cat "$out.txt" >&2
    grep -oE "Elo: -?[0-9.]+" "$out.txt" | head -n 1 | awk '{print $2}'
}
better() { # elo -> true when positive
    awk "BEGIN { exit !($1 > 0) }"
}

slices gen0 20 11 --style hce
train "$D/$v-gen1.dmw" $(parts gen0 20)
slices gen1 20 12 --eval-file "$D/$v-gen1.dmw"
train "$D/$v-gen2.dmw" $(parts gen0 20) $(parts gen1 20)
best=gen1
if better "$(match gen2 "$D/$v-gen2.dmw" gen1 "option.eval-file=$D/$v-gen1.dmw" 2)"; then
    best=gen2
fi
slices gen2 40 13 --eval-file "$D/$v-$best.dmw"
train "$D/$v-gen3.dmw" $(parts gen0 20) $(parts gen1 20) $(parts gen2 40)
if better "$(match gen3 "$D/$v-gen3.dmw" "$best" "option.eval-file=$D/$v-$best.dmw" 4)"; then
    best=gen3
fi
slices gen3 40 14 --eval-file "$D/$v-$best.dmw"
train "$D/$v-gen4.dmw" $(parts gen0 20) $(parts gen1 20) $(parts gen2 40) $(parts gen3 40)
if better "$(match gen4 "$D/$v-gen4.dmw" "$best" "option.eval-file=$D/$v-$best.dmw" 6)"; then
    best=gen4
fi
match "$best" "$D/$v-$best.dmw" hce option.style=hce 5 > /dev/null
echo "best: $D/$v-$best.dmw"
