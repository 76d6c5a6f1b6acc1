#!/bin/bash
# One class of an endgame-database wave per task of a Slurm job array. A wave is the
# classes of PIECES pieces with MEN men in all (`damiera egdb classes --pieces PIECES
# --men MEN`, one a line): they need only the classes of fewer pieces and the earlier
# waves, so a wave's classes are solved side by side. scripts/slurm/egdb-waves.sh
# submits every wave of a build, each after the one before; one wave again, alone:
#
#   N=$(target/release/damiera egdb classes --pieces 7 --men 3 | wc -l)
#   PIECES=7 MEN=3 VARIANT=english DIR=/shared/egdb/english sbatch --array=1-$N scripts/slurm/egdb-array.sh
#
# DIR is the database directory, on a file system every node sees (default: damiera's
# own, $XDG_DATA_HOME/damiera/egdb[/VARIANT]). Each task writes one class and its colour
# flip there (under a temporary name until checked and complete), reading only the
# classes its own can lead to. sbatch passes the environment on to the job.
#SBATCH --job-name=egdb
#SBATCH --cpus-per-task=2
#SBATCH --time=24:00:00
set -euo pipefail
DAMIERA=${DAMIERA:-target/release/damiera}   # the same build for every task
VARIANT=${VARIANT:-italian}
PIECES=${PIECES:?PIECES: the pieces of the wave}
MEN=${MEN:?MEN: the men of the wave}
K=${SLURM_ARRAY_TASK_ID:?not a job array task: submit with sbatch --array=1-N}
class=$("$DAMIERA" egdb classes --pieces "$PIECES" --men "$MEN" | sed -n "${K}p")
if [ -z "$class" ]; then
    echo "egdb-array.sh: the wave of $PIECES pieces and $MEN men has no class $K" >&2
    exit 2
fi
dir=()
if [ -n "${DIR:-}" ]; then
    dir=(--dir "$DIR")
fi
exec "$DAMIERA" egdb build --variant "$VARIANT" "${dir[@]}" --pieces "$PIECES" \
    --class "$class" --threads "${SLURM_CPUS_PER_TASK:-1}"
