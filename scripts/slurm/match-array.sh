#!/bin/bash
# One slice of a match per task of a Slurm job array; `damiera match merge` adds the
# slices up. The defaults are the SPRT of docs/shards.md: at most 20,000 games at 10,000
# nodes, seed 1, elo0=0 elo1=5, two games at a time, in 50 slices, ./damiera-new against
# ./damiera-old; from the folder that holds them:
#
#   sbatch scripts/slurm/match-array.sh                 # all 50 slices
#   sbatch --array=7 scripts/slurm/match-array.sh       # slice 7 again, alone
#   target/release/damiera match merge results/r-*.json # when all are done
#
# Another run: the variables below, e.g.
#   SLICES=4 GAMES=16 NODES=400 SPRT= sbatch --array=1-4 scripts/slurm/match-array.sh
# (--array must be 1-SLICES; SPRT= plays without one; MATCH_OPTIONS adds options, split
# on blanks, e.g. MATCH_OPTIONS="--draw-moves 30"). NEW and OLD are whole --engine
# specs. sbatch passes the environment on to the job. Each slice writes
# RESULTS/r-KKKKK.json (under a temporary name until complete).
#SBATCH --job-name=match
#SBATCH --array=1-50
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
set -euo pipefail
DAMIERA=${DAMIERA:-target/release/damiera}
NEW=${NEW:-cmd=./damiera-new name=new}
OLD=${OLD:-cmd=./damiera-old name=old}
RESULTS=${RESULTS:-results}
SLICES=${SLICES:-50}
GAMES=${GAMES:-20000}
NODES=${NODES:-10000}
SEED=${SEED:-1}
SPRT=${SPRT-elo0=0 elo1=5}
CONCURRENCY=${CONCURRENCY:-${SLURM_CPUS_PER_TASK:-2}}
VARIANT=${VARIANT:-italian}
K=${SLURM_ARRAY_TASK_ID:?not a job array task: submit with sbatch --array=1-$SLICES}
mkdir -p "$RESULTS"
args=(match --variant "$VARIANT" --engine "$NEW" --engine "$OLD" --games "$GAMES"
    --nodes "$NODES" --seed "$SEED" --concurrency "$CONCURRENCY" --shard "$K/$SLICES"
    --results "$(printf '%s/r-%05d.json' "$RESULTS" "$K")" --quiet)
if [ -n "$SPRT" ]; then
    read -r -a words <<< "$SPRT"
    args+=(--sprt "${words[@]}")
fi
if [ -n "${MATCH_OPTIONS:-}" ]; then
    read -r -a words <<< "$MATCH_OPTIONS"
    args+=("${words[@]}")
fi
exec "$DAMIERA" "${args[@]}"
