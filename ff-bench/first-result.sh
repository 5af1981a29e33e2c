#!/usr/bin/env bash
# Time to a first result of the README's first command: the launcher starting filesearch as three local
# groups, from the launcher's start to the first [G3] result line on its output, and the launcher's own
# "all groups connected" figure (from its first group's start). Rounds alternate between the variants, so
# each sees the same load; the medians are printed with the load average (see docs/benchmarks.md).
#
#   ff-bench/first-result.sh                 5 rounds of: defaults, --no-cds, one process (no launcher)
#   ff-bench/first-result.sh --rounds 9
#
# Needs the jars: mvn -q -pl ff-examples,ff-launcher -am package -DskipTests. Run from anywhere.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds=5
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="$2"; shift ;;
        -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
for jar in ff-launcher/target/ff-launcher.jar ff-examples/target/ff-examples.jar; do
    [[ -f "$jar" ]] || { echo "$jar is missing: mvn -q -pl ff-examples,ff-launcher -am package -DskipTests" >&2; exit 2; }
done

search=(filesearch --dirs ff-core/src,ff-examples/src --word Node)
launcher=(java -jar ff-launcher/target/ff-launcher.jar run --no-status -c ff-examples/configs/filesearch.json)

# Prints "<ms to first result> <ms connected>" for one run of "$@" (connected: - when not printed).
measure() {
    local start first="" connected="-" line
    start=$EPOCHREALTIME
    while IFS= read -r line; do
        if [[ -z "$first" && ( "$line" == "[G3] ff-"*/*:* || "$line" == ff-*/*:* ) ]]; then
            first=$EPOCHREALTIME
        elif [[ "$line" == "ff-launcher: all groups connected "* ]]; then
            connected="${line#ff-launcher: all groups connected }"
            connected="${connected%% ms*}"
        fi
    done < <("$@" 2>&1)
    [[ -n "$first" ]] || { echo "no result line from: $*" >&2; exit 1; }
    awk -v f="$first" -v s="$start" -v c="$connected" 'BEGIN { printf "%d %s\n", (f - s) * 1000, c }'
}

median() {
    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else print (NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)) }'
}

echo "warm-up: writes the launcher's CDS archive and remembers the program's groups"
measure "${launcher[@]}" -- java -jar ff-examples/target/ff-examples.jar "${search[@]}" > /dev/null
declare -A firsts connects
names=("defaults" "--no-cds" "one process")
for ((r = 1; r <= rounds; r++)); do
    read -r f c < <(measure "${launcher[@]}" -- java -jar ff-examples/target/ff-examples.jar "${search[@]}")
    firsts[defaults]+="$f "; connects[defaults]+="$c "
    read -r f c < <(measure "${launcher[@]}" --no-cds -- java -jar ff-examples/target/ff-examples.jar "${search[@]}")
    firsts[--no-cds]+="$f "; connects[--no-cds]+="$c "
    read -r f c < <(measure java -jar ff-examples/target/ff-examples.jar "${search[@]}")
    firsts[one process]+="$f "
done
printf "%-12s %22s %22s   (%d rounds, %d cores, load average %s)\n" "variant" "first result ms (med)" \
    "all connected ms (med)" "$rounds" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
for name in "${names[@]}"; do
    f=$(tr ' ' '\n' <<< "${firsts[$name]}" | grep -v '^$' | median)
    c=$( (tr ' ' '\n' <<< "${connects[$name]:-}" | grep -E '^[0-9]+$' || true) | median)
    printf "%-12s %22s %22s   first results: %s\n" "$name" "$f" "$c" "${firsts[$name]}"
done
