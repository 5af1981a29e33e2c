#!/usr/bin/env bash
# Builds ff-bench/target/benchmarks.jar, runs the JMH suite into a JSON file and prints the ratio tables
# (see docs/benchmarks.md).
#
#   ff-bench/run-benchmarks.sh                      full suite, ~2-3 minutes on 2 cores
#   ff-bench/run-benchmarks.sh --quick              smoke run: 1 warm-up + 1 measurement of 1 s each
#   ff-bench/run-benchmarks.sh -- FarmSpeedup -p strategy=BACKOFF,BLOCKING
#                                                   anything after -- goes to JMH (regexps, -p, -f, -prof ...)
#   ff-bench/run-benchmarks.sh --report FILE.json   only print the tables of an earlier run
#
# Options: --quick, --no-build (reuse the jar), --out FILE (JSON results; default
# ff-bench/target/jmh-results.json), --iters-per-micro X (skip the busy-work calibration), -h.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
jar="$here/target/benchmarks.jar"
out="$here/target/jmh-results.json"
quick=0
build=1
report=""
iters=""

usage() {
    sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --quick) quick=1 ;;
        --no-build) build=0 ;;
        --out) out="$2"; shift ;;
        --report) report="$2"; shift ;;
        --iters-per-micro) iters="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        *) echo "unknown option: $1 (JMH options go after --)" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

if [[ -n "$report" ]]; then
    exec python3 "$here/jmh_ratios.py" "$report"
fi

if [[ $build -eq 1 ]]; then
    echo "== building $jar"
    (cd "$root" && mvn -q -pl ff-bench -am package -DskipTests)
fi
[[ -f "$jar" ]] || { echo "no $jar: run without --no-build" >&2; exit 1; }

# One busy-work calibration for all forks, so that the sequential, executor and farm variants of
# FarmSpeedup run exactly the same iterations per task (see BusyWork).
if [[ -z "$iters" ]]; then
    iters="$(java -cp "$jar" org.fastflowj.bench.BusyWork)"
fi
echo "== busy-work calibration: $iters iterations/us"

jmh_args=(-rf json -rff "$out" -jvmArgsAppend "-Dff.bench.itersPerMicro=$iters")
if [[ $quick -eq 1 ]]; then
    # Proves that everything runs; the numbers mean nothing.
    jmh_args+=(-f 1 -wi 1 -i 1 -w 1s -r 1s)
fi

mkdir -p "$(dirname "$out")"
echo "== java -jar $jar ${jmh_args[*]} $*"
java -jar "$jar" "${jmh_args[@]}" "$@"

echo
echo "== ratios (from $out)"
python3 "$here/jmh_ratios.py" "$out"
