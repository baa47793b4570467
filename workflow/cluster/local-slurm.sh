#!/usr/bin/env bash
# A single-node SLURM cluster on this machine, to test the SLURM profile against a
# real scheduler (slurmctld, slurmd, and accounting through slurmdbd on MariaDB, so
# that `sacct` answers as on a real cluster).
#
#   workflow/cluster/local-slurm.sh install   apt-get the Debian packages (root)
#   workflow/cluster/local-slurm.sh start     configure and start every daemon
#   workflow/cluster/local-slurm.sh status    sinfo and the accounting's view
#   workflow/cluster/local-slurm.sh running   exit status 0 if all its daemons run
#   workflow/cluster/local-slurm.sh stop      stop the daemons this script started
#   workflow/cluster/local-slurm.sh clean     stop, then delete the state directory
#
# Everything lives in one state directory, $ESIZE_SLURM_DIR (default
# /tmp/esize-slurm-$UID): configuration, munge key and socket, MariaDB data, spool,
# logs, pid files. Clients find the cluster through /etc/slurm/slurm.conf, which
# `start` makes a symbolic link to the state directory's (and slurmdbd.conf likewise)
# and `stop` removes; an /etc/slurm/slurm.conf of another cluster is never replaced.
# (SLURM_CONF is no way around it: the plugin's job step drops SLURM_* variables before
# it calls srun.) Ports: $ESIZE_SLURM_PORT (default 6817) for slurmctld and the next
# three for slurmd, slurmdbd and MariaDB (on 127.0.0.1 only).
#
# This is a test cluster, not a production set-up: it must be started as root and
# runs every daemon as root (SlurmUser=root), with no cgroups or systemd
# (ProctrackType=proctrack/linuxproc, TaskPlugin=task/none), so jobs are not
# confined to their allocation; the node has this machine's cores and memory
# (as `slurmd -C` reports them).
set -euo pipefail

DIR=${ESIZE_SLURM_DIR:-/tmp/esize-slurm-$(id -u)}
PORT=${ESIZE_SLURM_PORT:-6817}
CLUSTER=esize-local
ACCOUNT=esize
PARTITION=local
NODE=$(hostname -s)
DB_PASSWORD=esize-local-test-only   # MariaDB on 127.0.0.1 of a throwaway cluster
PACKAGES=(slurm-wlm slurm-client slurmdbd munge mariadb-server mariadb-client)

CONF=$DIR/etc/slurm.conf
RUN=$DIR/run
LOG=$DIR/log
SOCK=$DIR/munge/munge.socket
DBSOCK=$RUN/mariadb.sock
ETC=/etc/slurm
export PATH=$PATH:/usr/sbin   # the daemons, for a non-login shell

die() { echo "local-slurm: error: $*" >&2; exit 1; }
say() { echo "local-slurm: $*" >&2; }

# Wait up to $1 seconds for the command in the remaining arguments to succeed.
wait_for() {
    local deadline=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || return 1
        sleep 0.25
    done
}

pid_alive() { [[ -s $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

cmd_install() {
    [[ $(id -u) == 0 ]] || die "install needs root (apt-get)"
    local missing=() p
    for p in "${PACKAGES[@]}"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if ((${#missing[@]})); then
        say "installing ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >/dev/null
    fi
}

have_binaries() {
    local b
    for b in munged mungekey slurmctld slurmd slurmdbd sbatch sacct sacctmgr sinfo \
             mariadbd mariadb-install-db mariadb; do
        command -v "$b" >/dev/null 2>&1 || return 1
    done
}

write_configs() {
    mkdir -p "$DIR"/{etc,munge,state,spool,mysql} "$RUN" "$LOG"
    chmod 700 "$DIR" "$DIR/munge"
    # this machine as slurmd sees it: CPUs, sockets, cores, threads, memory
    local hw
    hw=$(slurmd -C | head -1 | sed 's/^NodeName=[^ ]* //')
    cat > "$CONF" <<EOF
# Written by workflow/cluster/local-slurm.sh: a single-node test cluster.
ClusterName=$CLUSTER
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SOCK
CredType=cred/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd.pid
SlurmctldLogFile=$LOG/slurmctld.log
SlurmdLogFile=$LOG/slurmd.log
# no cgroups, no systemd: track processes through /proc, no task binding
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1000
# accounting through slurmdbd, so that sacct works as on a real cluster
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$((PORT + 2))
# for the slurmdbd connection the munge socket is given here, not by AuthInfo
AccountingStoragePass=$SOCK
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=10
JobCompType=jobcomp/none
NodeName=$NODE NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=$PARTITION Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
    cat > "$DIR/etc/slurmdbd.conf" <<EOF
# Written by workflow/cluster/local-slurm.sh.
AuthType=auth/munge
AuthInfo=socket=$SOCK
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$((PORT + 2))
SlurmUser=root
PidFile=$RUN/slurmdbd.pid
LogFile=$LOG/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$((PORT + 3))
StorageUser=slurm
StoragePass=$DB_PASSWORD
StorageLoc=slurm_acct_db
EOF
    chmod 600 "$DIR/etc/slurmdbd.conf"
    [[ -s $DIR/munge/munge.key ]] || mungekey --create --keyfile="$DIR/munge/munge.key"
    chmod 400 "$DIR/munge/munge.key"
}

# /etc/slurm/{slurm,slurmdbd}.conf -> the state directory's, unless another cluster's
link_configs() {
    mkdir -p "$ETC"
    local f
    for f in slurm.conf slurmdbd.conf; do
        if [[ -e $ETC/$f || -L $ETC/$f ]] && [[ $(readlink "$ETC/$f") != "$DIR/etc/$f" ]]; then
            die "$ETC/$f exists and is not this test cluster's; not replacing it"
        fi
        ln -sfn "$DIR/etc/$f" "$ETC/$f"
    done
}

unlink_configs() {
    local f
    for f in slurm.conf slurmdbd.conf; do
        [[ -L $ETC/$f && $(readlink "$ETC/$f") == "$DIR/etc/$f" ]] && rm -f "$ETC/$f"
    done
    return 0
}

start_munge() {
    pid_alive "$RUN/munged.pid" && return 0
    munged --force --socket="$SOCK" --key-file="$DIR/munge/munge.key" \
        --pid-file="$RUN/munged.pid" --log-file="$LOG/munged.log" \
        --seed-file="$DIR/munge/munged.seed" --num-threads=2
    wait_for 10 test -S "$SOCK" || die "munged did not start (see $LOG/munged.log)"
}

sql() { mariadb --no-defaults --socket="$DBSOCK" -u root "$@"; }

start_mariadb() {
    if ! pid_alive "$RUN/mariadb.pid"; then
        if [[ ! -d $DIR/mysql/mysql ]]; then
            mariadb-install-db --no-defaults --datadir="$DIR/mysql" --user=root \
                --auth-root-authentication-method=socket --skip-test-db \
                > "$LOG/mariadb-install.log" 2>&1 \
                || die "mariadb-install-db failed (see $LOG/mariadb-install.log)"
        fi
        # small and single-user: settings of slurmdbd's documentation, less memory
        nohup mariadbd --no-defaults --user=root --datadir="$DIR/mysql" \
            --socket="$DBSOCK" --pid-file="$RUN/mariadb.pid" --bind-address=127.0.0.1 \
            --port=$((PORT + 3)) --log-error="$LOG/mariadb.log" \
            --innodb-buffer-pool-size=128M --innodb-log-file-size=64M \
            --innodb-lock-wait-timeout=900 --max-connections=50 \
            > /dev/null 2>&1 &
        wait_for 60 sql -e "select 1" || die "MariaDB did not start (see $LOG/mariadb.log)"
    fi
    sql -e "CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY '$DB_PASSWORD';
            CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
            GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
            GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';"
}

start_slurmdbd() {
    pid_alive "$RUN/slurmdbd.pid" || slurmdbd
    wait_for 60 sacctmgr -n list cluster || die "slurmdbd did not start (see $LOG/slurmdbd.log)"
    # the cluster, one account, and root in it as its default account (each once)
    sacctmgr -n -P list cluster format=cluster | grep -qx "$CLUSTER" \
        || sacctmgr -i add cluster "$CLUSTER" >/dev/null
    sacctmgr -n -P list account format=account | grep -qx "$ACCOUNT" \
        || sacctmgr -i add account "$ACCOUNT" Description="esize test" \
            Organization=esize Cluster="$CLUSTER" >/dev/null
    sacctmgr -n -P -s list user root format=account | grep -qx "$ACCOUNT" \
        || sacctmgr -i add user root Account="$ACCOUNT" Cluster="$CLUSTER" >/dev/null
    sacctmgr -n -P list user root format=defaultaccount | grep -qx "$ACCOUNT" \
        || sacctmgr -i modify user root set DefaultAccount="$ACCOUNT" >/dev/null
}

node_idle() { [[ $(sinfo -h -n "$NODE" -o %t 2>/dev/null) == idle* ]]; }

start_slurm() {
    # A controller started anew forgets the jobs of the cluster's earlier life (-c):
    # their submitter (a test run stopped half-way) is gone, and recovered jobs would
    # run again and keep the node busy. A controller already running keeps its queue.
    pid_alive "$RUN/slurmctld.pid" || slurmctld -c
    wait_for 60 scontrol ping || die "slurmctld did not start (see $LOG/slurmctld.log)"
    pid_alive "$RUN/slurmd.pid" || slurmd -N "$NODE"
    wait_for 60 node_idle || die "node $NODE is not idle: $(sinfo -h -o '%t %E' 2>&1), \
$(squeue -h 2>/dev/null | wc -l) job(s) in the queue (see $LOG/slurmd.log)"
}

cmd_start() {
    [[ $(id -u) == 0 ]] || die "the local test cluster runs as root (SlurmUser=root); start it as root"
    have_binaries || cmd_install
    write_configs
    link_configs
    start_munge
    start_mariadb
    start_slurmdbd
    start_slurm
    say "cluster $CLUSTER up: partition $PARTITION, account $ACCOUNT, node $NODE ($(sinfo -h -o '%c CPUs, %m MB'))"
}

# Stop one daemon by its pid file, waiting for it to exit.
stop_pid() {
    local name=$1 file=$2
    if pid_alive "$file"; then
        local pid
        pid=$(cat "$file")
        kill "$pid" 2>/dev/null || true
        wait_for 60 bash -c "! kill -0 $pid 2>/dev/null" || {
            say "$name ($pid) did not stop in 60 s; killing it"
            kill -9 "$pid" 2>/dev/null || true
        }
    fi
    rm -f "$file"
}

cmd_stop() {
    [[ -d $DIR ]] || { say "nothing to stop ($DIR does not exist)"; return 0; }
    stop_pid slurmd "$RUN/slurmd.pid"
    stop_pid slurmctld "$RUN/slurmctld.pid"
    stop_pid slurmdbd "$RUN/slurmdbd.pid"
    stop_pid mariadbd "$RUN/mariadb.pid"
    stop_pid munged "$RUN/munged.pid"
    unlink_configs
    say "stopped"
}

cmd_running() {
    local d
    for d in munged mariadb slurmdbd slurmctld slurmd; do
        pid_alive "$RUN/$d.pid" || return 1
    done
}

cmd_status() {
    sinfo
    sacct -X --starttime now-1hours -o JobID,JobName%40,State,Elapsed | tail -20
}

case ${1:-} in
    install) cmd_install ;;
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    running) cmd_running ;;
    clean) cmd_stop; rm -rf "$DIR"; say "removed $DIR" ;;
    *) die "usage: $0 install|start|status|running|stop|clean" ;;
esac
