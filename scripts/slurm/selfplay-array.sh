#!/bin/bash
# One slice of a self-play run per task of a Slurm job array. The defaults are the run
# of docs/training.md (generation 4's data: 130,000 games at 3,000 nodes, seed 4, in 260
# slices); from the repository's folder:
#
#   sbatch scripts/slurm/selfplay-array.sh               # all 260 slices
#   sbatch --array=37 scripts/slurm/selfplay-array.sh    # slice 37 again, alone
#   cat gen3/part-*.bin > gen3.bin                       # when all are done
#
# Another run: the variables below, e.g.
#   SLICES=4 GAMES=40 NODES=300 VARIANT=english OUT=small sbatch --array=1-4 scripts/slurm/selfplay-array.sh
# (--array must be 1-SLICES: the header's 1-260 is for the default SLICES). sbatch passes
# the environment on to the job. Each slice writes OUT/part-KKKKK.bin (under a temporary
# name until complete, so a file there is a finished slice); the slices in order are
# byte for byte the file of one `damiera selfplay` of the whole run.
#SBATCH --job-name=selfplay
#SBATCH --array=1-260
#SBATCH --cpus-per-task=1
#SBATCH --time=01:00:00
set -euo pipefail
DAMIERA=${DAMIERA:-target/release/damiera}   # the same build for every slice
OUT=${OUT:-gen3}
SLICES=${SLICES:-260}
GAMES=${GAMES:-130000}
NODES=${NODES:-3000}
SEED=${SEED:-4}
VARIANT=${VARIANT:-italian}
K=${SLURM_ARRAY_TASK_ID:?not a job array task: submit with sbatch --array=1-$SLICES}
mkdir -p "$OUT"
exec "$DAMIERA" selfplay --variant "$VARIANT" --games "$GAMES" --nodes "$NODES" \
    --seed "$SEED" --shard "$K/$SLICES" --quiet -o "$(printf '%s/part-%05d.bin' "$OUT" "$K")"
