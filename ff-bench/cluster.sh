#!/usr/bin/env bash
# An emulated cluster on one machine: N network namespaces ("hosts"), each with its own address on a
# private bridge, every link shaped to a fixed rate with tc tbf in both directions (see docs/benchmarks.md).
#
#   ff-bench/cluster.sh up N [--rate 1gbit]   create hosts ffj1..ffjN at 10.213.0.1..N on bridge ffjbr0
#   ff-bench/cluster.sh down                  remove everything `up` created (and nothing else)
#   ff-bench/cluster.sh status                the hosts, their addresses and qdiscs
#   ff-bench/cluster.sh ceiling [SECONDS]     iperf3 between ffj1 and ffj2 (shaped) and on ffj1's loopback,
#                                             one JSON line each on stdout (Mbit/s)
#   ff-bench/cluster.sh exec I COMMAND...     run COMMAND inside host I (ip netns exec ffjI)
#
# FFJ_CLUSTER_PREFIX (default ffj) names the hosts, the bridge (PREFIXbr0) and the veth ends (PREFIXvI).
#
# Needs root, `ip` and `tc` (iproute2); `ceiling` needs iperf3 and installs the Debian package when it is
# missing and apt-get is there. What `up` made is listed in $FFJ_CLUSTER_STATE (default
# /run/ffj-cluster.state); `down` reads that list. The only addresses the hosts get are 10.213.0.1..N on
# the bridge and their own loopback: no route to the outside, no NAT, nothing in the root namespace is
# given an address.
set -euo pipefail

prefix=${FFJ_CLUSTER_PREFIX:-ffj}
bridge=${prefix}br0
subnet=10.213.0
state=${FFJ_CLUSTER_STATE:-/run/ffj-cluster.state}

die() {
    echo "cluster.sh: $*" >&2
    exit 2
}

usage() {
    sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

# Every reason `up` cannot work, said before anything is created.
preflight() {
    [ "$(id -u)" = 0 ] || die "needs root to create network namespaces (running as uid $(id -u))"
    command -v ip >/dev/null 2>&1 || die "no 'ip' command: install iproute2"
    command -v tc >/dev/null 2>&1 || die "no 'tc' command: install iproute2"
    local probe=${prefix}probe$$
    ip netns add "$probe" 2>/dev/null || die "cannot create a network namespace here (ip netns add failed)"
    ip netns del "$probe"
}

record() {
    echo "$1 $2" >> "$state"
}

# tbf on the egress of DEV (in namespace NS, or the root one when NS is empty): the queue of 128 kB and
# 50 ms of latency are the checked recipe of shared/TEST-INFRA.md (0.949 Gbit/s measured at 1gbit).
shape() {
    local ns=$1 dev=$2 rate=$3
    if [ -n "$ns" ]; then
        ip netns exec "$ns" tc qdisc add dev "$dev" root tbf rate "$rate" burst 128kb latency 50ms
    else
        tc qdisc add dev "$dev" root tbf rate "$rate" burst 128kb latency 50ms
    fi
}

up() {
    local n=$1 rate=$2
    [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le 250 ] || die "up: N must be 1..250, got '$n'"
    preflight
    [ -s "$state" ] && die "a cluster is already up (listed in $state): run 'cluster.sh down' first"
    : > "$state"
    trap 'echo "cluster.sh: up failed, removing what it made" >&2; down' ERR
    ip link add "$bridge" type bridge
    record link "$bridge"
    ip link set "$bridge" up
    for i in $(seq 1 "$n"); do
        local ns=$prefix$i host_end=${prefix}v$i
        ip netns add "$ns"
        record netns "$ns"
        ip link add "$host_end" type veth peer name eth0 netns "$ns"
        record link "$host_end"
        ip link set "$host_end" master "$bridge" up
        ip netns exec "$ns" ip addr add "$subnet.$i/24" dev eth0
        ip netns exec "$ns" ip link set eth0 up
        ip netns exec "$ns" ip link set lo up
        # Both directions: the namespace's eth0 shapes what the host sends, the bridge port what it receives.
        shape "$ns" eth0 "$rate"
        shape "" "$host_end" "$rate"
    done
    trap - ERR
    echo "cluster up: $n hosts ${prefix}1..${prefix}$n at $subnet.1..$subnet.$n, links shaped to $rate both ways"
}

down() {
    if [ ! -f "$state" ]; then
        echo "no cluster is up ($state does not exist)"
        return 0
    fi
    [ "$(id -u)" = 0 ] || die "needs root to remove the namespaces listed in $state"
    # Namespaces first (their veth ends and qdiscs go with them), then the links left in the root one.
    local kind name
    while read -r kind name; do
        [ "$kind" = netns ] && ip netns del "$name" 2>/dev/null || true
    done < "$state"
    while read -r kind name; do
        [ "$kind" = link ] && ip link del "$name" 2>/dev/null || true
    done < "$state"
    rm -f "$state"
    echo "cluster down"
}

status() {
    [ -f "$state" ] || { echo "no cluster is up"; return 0; }
    local kind name
    while read -r kind name; do
        if [ "$kind" = netns ]; then
            echo "$name: $(ip netns exec "$name" ip -4 -o addr show dev eth0 | awk '{print $4}')" \
                "$(ip netns exec "$name" tc qdisc show dev eth0 | grep -o 'rate [^ ]*' || true)"
        fi
    done < "$state"
}

ensure_iperf3() {
    command -v iperf3 >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "cluster.sh: installing iperf3" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iperf3 >/dev/null 2>&1 \
            || { apt-get update -qq >/dev/null 2>&1 \
                && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iperf3 >/dev/null 2>&1; } \
            || die "iperf3 is missing and could not be installed"
    else
        die "iperf3 is missing (apt-get install iperf3)"
    fi
}

# One iperf3 run of SECONDS from namespace CLIENT_NS to the server in SERVER_NS at ADDR, as a JSON line.
iperf_line() {
    local name=$1 server_ns=$2 client_ns=$3 addr=$4 seconds=$5
    local port=$((20000 + RANDOM % 20000))
    ip netns exec "$server_ns" iperf3 -s -1 -B "$addr" -p "$port" >/dev/null 2>&1 &
    local server=$!
    local mbps=""
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        if mbps=$(ip netns exec "$client_ns" iperf3 -c "$addr" -p "$port" -t "$seconds" -J 2>/dev/null \
            | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]/1e6,1))' 2>/dev/null); then
            break
        fi
        mbps=""
        sleep 0.2 # the server is still binding: iperf3 has no readiness signal but a listening socket
    done
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    [ -n "$mbps" ] || die "iperf3 $name: no result (server $addr:$port in $server_ns)"
    echo "{\"link\":\"$name\",\"tool\":\"iperf3\",\"seconds\":$seconds,\"mbps\":$mbps}"
}

ceiling() {
    local seconds=${1:-3}
    [ -f "$state" ] || die "no cluster is up: run 'cluster.sh up 2' first"
    grep -q "^netns ${prefix}2$" "$state" || die "ceiling needs at least 2 hosts"
    ensure_iperf3
    iperf_line loopback "${prefix}1" "${prefix}1" 127.0.0.1 "$seconds"
    iperf_line shaped "${prefix}2" "${prefix}1" "$subnet.2" "$seconds"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
    up)
        [ $# -ge 1 ] || die "up: give the number of hosts (cluster.sh up N)"
        n=$1
        shift
        rate=1gbit
        while [ $# -gt 0 ]; do
            case "$1" in
                --rate) rate=$2; shift ;;
                *) die "up: unknown option $1" ;;
            esac
            shift
        done
        up "$n" "$rate"
        ;;
    down) down ;;
    status) status ;;
    ceiling) ceiling "$@" ;;
    exec)
        [ $# -ge 2 ] || die "exec: cluster.sh exec I COMMAND..."
        i=$1
        shift
        exec ip netns exec "$prefix$i" "$@"
        ;;
    -h | --help | "") usage ;;
    *) die "unknown command '$cmd' (up, down, status, ceiling, exec)" ;;
esac
