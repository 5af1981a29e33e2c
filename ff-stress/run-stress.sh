#!/usr/bin/env bash
# Runs the jcstress tests of the run-time's concurrent pieces (see ff-stress/README.md), building
# ff-stress/target/jcstress.jar first when it is missing or older than a source or pom.
#
#   ff-stress/run-stress.sh                          every test, -m quick (~9 minutes on 2 cores)
#   ff-stress/run-stress.sh -t ParkingStateTests     only the tests whose name matches a regexp
#   ff-stress/run-stress.sh -m default               longer runs, rarer interleavings
#   ff-stress/run-stress.sh --no-build -m sanity     reuse the jar; a smoke run (~40 s)
#
# Every argument but --no-build goes to jcstress (java -jar ff-stress/target/jcstress.jar -h lists
# them); -m quick and -r jcstress-results are added unless given. jcstress runs in ff-stress/target, so
# its report lands in ff-stress/target/jcstress-results/index.html (a relative -r is taken from there).
# Exit status: jcstress's own (1 when a test saw a FORBIDDEN outcome or erred, 0 otherwise; an
# ACCEPTABLE_INTERESTING outcome is reported but passes), and 2 when no test matches -t (jcstress
# itself exits 0 then).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
jar="$here/target/jcstress.jar"
build=1
args=()
mode_given=0
report_given=0

for arg in "$@"; do
    case "$arg" in
        --no-build) build=0 ;;
        -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *)
            [[ "$arg" == "-m" ]] && mode_given=1
            [[ "$arg" == "-r" ]] && report_given=1
            args+=("$arg")
            ;;
    esac
done
[[ $mode_given -eq 1 ]] || args=(-m quick "${args[@]}")
[[ $report_given -eq 1 ]] || args=(-r jcstress-results "${args[@]}")

stale() {
    [[ ! -f "$jar" ]] && return 0
    [[ -n "$(find "$root/pom.xml" "$here/pom.xml" "$here/src" "$root/ff-core/pom.xml" \
        "$root/ff-core/src/main" -newer "$jar" -print -quit)" ]]
}

if [[ $build -eq 1 ]] && stale; then
    echo "== building $jar"
    (cd "$root" && mvn -q -pl ff-stress -am package -DskipTests)
fi
[[ -f "$jar" ]] || { echo "no $jar: run without --no-build" >&2; exit 1; }

log="$here/target/jcstress-last.log"
cd "$here/target"
status=0
java -jar "$jar" "${args[@]}" 2>&1 | tee "$log" || status=$?
if grep -q "No matching tests" "$log"; then
    echo "run-stress.sh: no test matches the selection" >&2
    exit 2
fi
exit "$status"
