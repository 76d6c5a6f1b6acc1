#!/usr/bin/env bash
# A real one-node Slurm on this machine, for tests/slurm.rs (which submits the job-array
# scripts of scripts/slurm/ to it). Installs Debian's slurm-wlm and munge when missing,
# writes /etc/slurm/slurm.conf for one node (this host, `hostname -s`), creates the munge
# key when missing, starts munged, slurmctld and slurmd, and waits until the node takes
# jobs. Safe to run again: what already runs is left alone. A slurm.conf that this script
# did not write (a real cluster's) is never overwritten: then it only checks that Slurm
# answers.
#
# Jobs run as root (SlurmdUser root), with the environment of whoever submits them and
# the scheduling priority of slurmd: `nice -n 19 bash scripts/ci-slurm.sh` runs them niced.
# State, spool, pid and log files go to $DAMIERA_SLURM_STATE (default
# /var/lib/damiera-slurm; the logs slurmctld.log and slurmd.log are there).
set -euo pipefail

sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
state=${DAMIERA_SLURM_STATE:-/var/lib/damiera-slurm}
conf=/etc/slurm/slurm.conf
marker="# Written by Damiera's scripts/ci-slurm.sh"

if ! command -v sbatch >/dev/null 2>&1 || ! command -v slurmctld >/dev/null 2>&1 \
    || ! command -v slurmd >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq slurm-wlm munge >/dev/null
fi

# The node answers and takes jobs: idle, mixed or allocated (not down or drained).
node_up() {
    sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated|completing)'
}

if [ -e "$conf" ] && ! grep -qF "$marker" "$conf"; then
    if node_up; then
        echo "ci-slurm: $conf is not ours; its Slurm answers, using it"
        exit 0
    fi
    echo "ci-slurm: $conf was not written by this script and its Slurm does not answer" >&2
    exit 1
fi

# On loopback, so that a host name that does not resolve does not matter.
host=$(hostname -s)
# The node as slurmd sees it (CPUs, sockets, cores, memory): a node line that promises
# more than the machine has would be drained.
node=$(slurmd -C | head -n 1)
case "$node" in
NodeName=*) ;;
*)
    echo "ci-slurm: slurmd -C printed no node line: $node" >&2
    exit 1
    ;;
esac
# slurmd -C names the node after `hostname -s` as well.
node="NodeName=$host ${node#NodeName=* }"

$sudo mkdir -p "$state/ctld" "$state/spool" /etc/slurm
new_conf=$(
    cat <<EOF
$marker: one node, no accounting.
ClusterName=damiera
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
)
if [ ! -e "$conf" ] || [ "$(cat "$conf")" != "$new_conf" ]; then
    printf '%s\n' "$new_conf" | $sudo tee "$conf" >/dev/null
    # A daemon of ours that runs read the old file: stopped here, started again below.
    for daemon in slurmctld slurmd; do
        if [ -e "$state/$daemon.pid" ]; then
            pid=$(cat "$state/$daemon.pid")
            $sudo kill "$pid" 2>/dev/null || true
            for _ in $(seq 1 100); do
                $sudo kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
        fi
    done
fi

# munge: the key (the package makes one; a copied-in image may not have it), then munged.
if [ ! -e /etc/munge/munge.key ]; then
    if command -v mungekey >/dev/null 2>&1; then
        $sudo mungekey --create --keyfile=/etc/munge/munge.key
    else
        $sudo dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    $sudo chown munge:munge /etc/munge/munge.key
    $sudo chmod 400 /etc/munge/munge.key
fi
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    $sudo mkdir -p /run/munge
    $sudo chown munge:munge /run/munge
    $sudo chmod 755 /run/munge
    if [ -z "$sudo" ]; then
        runuser -u munge -- /usr/sbin/munged
    else
        sudo -u munge /usr/sbin/munged
    fi
    for _ in $(seq 1 50); do
        munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break
        sleep 0.1
    done
fi

# The daemons, each unless its pid file names a live one.
running() {
    [ -e "$state/$1.pid" ] && $sudo kill -0 "$(cat "$state/$1.pid")" 2>/dev/null
}
running slurmctld || $sudo slurmctld
running slurmd || $sudo slurmd

for _ in $(seq 1 60); do
    if node_up; then
        echo "ci-slurm: node $host up ($(sinfo -h -N -o '%T %c CPUs'))"
        exit 0
    fi
    # A node left down or drained by an earlier run: take it back.
    if sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(down|drain)'; then
        $sudo scontrol update NodeName="$host" State=RESUME 2>/dev/null || true
    fi
    sleep 1
done
echo "ci-slurm: the node did not come up; $state/slurmctld.log and slurmd.log say why:" >&2
tail -n 5 "$state/slurmctld.log" "$state/slurmd.log" >&2 || true
exit 1
