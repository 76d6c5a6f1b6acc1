#!/bin/bash
# Submits a distributed endgame-database build to Slurm: the classes of FROM to TO
# pieces, one job array a wave (scripts/slurm/egdb-array.sh: the classes of one count of
# pieces and men, solved side by side), each wave held until the one before it has
# succeeded; a failed wave cancels the waves after it. The classes of fewer than FROM
# pieces must be in DIR already (`damiera egdb build --pieces 6` on one machine). Prints
# one line a wave: job id, pieces, men, classes. From the repository's folder:
#
#   FROM=7 VARIANT=english DIR=/shared/egdb/english bash scripts/slurm/egdb-waves.sh
#
# SBATCH_OPTIONS adds sbatch options to every wave, split on blanks (e.g.
# SBATCH_OPTIONS="--cpus-per-task=8 --mem=64G"). An interrupted build resumes: submit
# the same again; classes already in DIR are kept, not solved again.
set -euo pipefail
DAMIERA=${DAMIERA:-target/release/damiera}
FROM=${FROM:-7}
TO=${TO:-$FROM}
here=$(cd "$(dirname "$0")" && pwd)
read -r -a options <<< "${SBATCH_OPTIONS:-}"
after=()
for pieces in $(seq "$FROM" "$TO"); do
    for men in $(seq 0 "$pieces"); do
        n=$("$DAMIERA" egdb classes --pieces "$pieces" --men "$men" | wc -l)
        [ "$n" -gt 0 ] || continue
        id=$(PIECES=$pieces MEN=$men sbatch --parsable --kill-on-invalid-dep=yes \
            "${after[@]}" "${options[@]}" --array=1-"$n" "$here/egdb-array.sh")
        id=${id%%;*}
        echo "$id $pieces $men $n"
        after=(--dependency=afterok:"$id")
    done
done
