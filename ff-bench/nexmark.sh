#!/usr/bin/env bash
# NEXMark on FastFlow-J's stream API, Apache Flink and Hazelcast Jet, all in this machine's JVMs (one child
# JVM per engine, loopback only): throughput of q1, q2, q3, q5 (sliding by 1 s and by 100 ms), q7 and the
# in-run bound, then q5 and q7 latency at half of FastFlow-J's throughput. Prints a markdown table and
# writes JSON lines (docs/benchmarks.md, NEXMark).
#
#   ff-bench/nexmark.sh                                   parallelism 2, 20 M events (10 M for q3, q5, q7; 50 M for q8)
#   ff-bench/nexmark.sh --parallelism 1,2 --runs 5
#   ff-bench/nexmark.sh --no-build --queries BOUND,Q1 --engines FFJ,JET --latency-seconds 0
#
# Options: --no-build (reuse ff-bench/target/benchmarks.jar); every other option goes to
# org.fastflowj.bench.nexmark.NexmarkBench (--help lists them).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
jar="$here/target/benchmarks.jar"
build=1
args=()

while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0 ;;
        -h|--help) sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) args+=("$1") ;;
    esac
    shift
done

if [[ $build == 1 ]]; then
    (cd "$root" && mvn -B -q -pl ff-bench -am package -DskipTests -Djacoco.skip=true)
fi
[[ -f "$jar" ]] || { echo "nexmark.sh: $jar is missing (run without --no-build)" >&2; exit 2; }

cd "$root"
java -Xmx512m -cp "$jar" org.fastflowj.bench.nexmark.NexmarkBench "${args[@]}"
