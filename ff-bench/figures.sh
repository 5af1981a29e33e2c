#!/usr/bin/env bash
# The evidence suite in one command: builds ff-bench/target/benchmarks.jar, brings up a 4-host emulated
# cluster (cluster.sh) when it can (the figures between two groups use hosts 1 and 2, DF-Threads against
# OpenMPI all four), measures the link ceilings with iperf3, runs every figure
# (org.fastflowj.bench.figures.Figures), writes JSON lines and PNG/SVG plots, and takes the cluster down.
#
#   ff-bench/figures.sh                    short version, about 10-15 minutes on 2 cores
#   ff-bench/figures.sh --paper            the papers' sizes (hours)
#   ff-bench/figures.sh --only fig9-all-to-all,farm-2009
#   ff-bench/figures.sh --no-build --no-cluster --out /tmp/plots
#
# Options: --paper, --scale SMOKE|SHORT|PAPER, --only LIST, --out DIR (default docs/benchmarks),
# --no-build (reuse the jar), --no-cluster (loopback only). Without root or `ip` the shaped-link rows are
# skipped, saying why; everything else runs on loopback.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
jar="$here/target/benchmarks.jar"
build=1
cluster=1
out="$root/docs/benchmarks"
args=()

while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0 ;;
        --no-cluster) cluster=0 ;;
        --out) out="$2"; shift ;;
        --paper) args+=(--paper) ;;
        --scale|--only) args+=("$1" "$2"); shift ;;
        -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "figures.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

if [[ $build == 1 ]]; then
    (cd "$root" && mvn -B -q -pl ff-bench -am package -DskipTests -Djacoco.skip=true)
fi
[[ -f "$jar" ]] || { echo "figures.sh: $jar is missing (run without --no-build)" >&2; exit 2; }

mkdir -p "$out"
ceilings="$here/target/ceilings.jsonl"
: > "$ceilings"
cluster_args=()
if [[ $cluster == 1 ]]; then
    if "$here/cluster.sh" up 4; then
        trap '"$here/cluster.sh" down' EXIT
        "$here/cluster.sh" ceiling 3 > "$ceilings"
        cluster_args=(--cluster ffj)
    else
        echo "figures.sh: no emulated cluster (see above): loopback only" >&2
    fi
fi
if [[ ! -s "$ceilings" ]] && command -v iperf3 >/dev/null 2>&1; then
    # Loopback ceiling without a cluster: iperf3 in this namespace.
    port=$((20000 + RANDOM % 20000))
    iperf3 -s -1 -B 127.0.0.1 -p "$port" >/dev/null 2>&1 &
    server=$!
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        if mbps=$(iperf3 -c 127.0.0.1 -p "$port" -t 3 -J 2>/dev/null | python3 -c \
            'import json,sys; print(round(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]/1e6,1))' 2>/dev/null); then
            echo "{\"link\":\"loopback\",\"tool\":\"iperf3\",\"seconds\":3,\"mbps\":$mbps}" > "$ceilings"
            break
        fi
        sleep 0.2 # the server is still binding
    done
    kill "$server" 2>/dev/null || true
fi

cd "$root"
java -Xmx2g -cp "$jar" org.fastflowj.bench.figures.Figures --out "$out" --ceilings "$ceilings" \
    "${cluster_args[@]}" "${args[@]}"
