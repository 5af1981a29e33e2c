#!/usr/bin/env bash
# Time to a first result of the README's first command: the launcher starting filesearch as three local
# groups, from the launcher's start to the first [G3] result line on its output, and the launcher's own
# "all groups connected" figure (from its first group's start). Rounds alternate between the variants, so
# each sees the same load; the medians are printed with the load average (see docs/benchmarks.md).
#
#   ff-bench/first-result.sh                     5 rounds of: defaults, --no-cds, one process (no launcher)
#   ff-bench/first-result.sh --rounds 9
#   ff-bench/first-result.sh --baseline DIR      also "baseline": DIR's ff-launcher.jar and ff-examples.jar
#                                                (another build, for an A/B in one run)
#   ff-bench/first-result.sh --bound             also "bound": the launcher starting three JVMs that only
#                                                start, connect a socket to each other and print a line
#
# Needs the jars: mvn -q -pl ff-examples,ff-launcher -am package -DskipTests. Run from anywhere.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds=5
baseline=""
bound=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="$2"; shift ;;
        --baseline) baseline="$(cd "$2" && pwd)"; shift ;;
        --bound) bound=true ;;
        -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
for jar in ff-launcher/target/ff-launcher.jar ff-examples/target/ff-examples.jar \
    ${baseline:+"$baseline/ff-launcher.jar" "$baseline/ff-examples.jar"}; do
    [[ -f "$jar" ]] || { echo "$jar is missing: mvn -q -pl ff-examples,ff-launcher -am package -DskipTests" >&2; exit 2; }
done

search=(filesearch --dirs ff-core/src,ff-examples/src --word Node)
config=ff-examples/configs/filesearch.json
launcher=(java -jar ff-launcher/target/ff-launcher.jar run --no-status -c "$config")
examples=(java -jar ff-examples/target/ff-examples.jar)

# The bound: the same launcher and config starting three JVMs of a class that does nothing but connect to
# its peers (the config's endpoints) and print one line, with the config's jvmArgs and a CDS archive.
bound_dir=""
if $bound; then
    bound_dir="$root/ff-bench/target/first-result-bound"
    mkdir -p "$bound_dir"
    cat > "$bound_dir/ConnectOnly.java" <<'EOF'
import java.net.*;
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;

/** A group that only listens on its endpoint, connects to every other group's, and prints a line. */
public class ConnectOnly {
    public static void main(String[] args) throws Exception {
        String group = null, config = null;
        for (String a : args) {
            if (a.startsWith("--DFF_GName=")) group = a.substring(12);
            if (a.startsWith("--DFF_Config=")) config = a.substring(13);
        }
        if (Arrays.asList(args).contains("--DFF_PrintGroups")) {
            System.out.println("DFF_GROUPS: G1,G2,G3");
            return;
        }
        Matcher m = Pattern.compile("\"name\": \"(G\\d)\", \"endpoint\": \"[^:]+:(\\d+)\"")
                .matcher(Files.readString(Path.of(config)));
        Map<String, Integer> ports = new LinkedHashMap<>();
        while (m.find()) ports.put(m.group(1), Integer.parseInt(m.group(2)));
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress("127.0.0.1", ports.get(group)));
            List<Socket> links = new ArrayList<>();
            for (Map.Entry<String, Integer> peer : ports.entrySet()) {
                if (peer.getKey().compareTo(group) > 0) links.add(connect(peer.getValue()));
            }
            for (String peer : ports.keySet()) {
                if (peer.compareTo(group) < 0) links.add(server.accept());
            }
            System.out.println("DFF_CONNECTED: " + group);
            if (group.equals("G3")) System.out.println("ff-core/src/x.java:1:Node");
            for (Socket s : links) s.close();
        }
    }

    private static Socket connect(int port) throws Exception {
        for (long wait = 5; ; wait = Math.min(wait * 2, 20)) {
            try {
                return new Socket("127.0.0.1", port);
            } catch (ConnectException notYet) {
                Thread.sleep(wait);
            }
        }
    }
}
EOF
    javac -d "$bound_dir" "$bound_dir/ConnectOnly.java"
    (cd "$bound_dir" && jar cf connect-only.jar ConnectOnly.class)
fi

# Prints "<ms to first result> <ms connected> <ms started>" for one run of "$@": connected is the
# launcher's figure, started the time from the launcher's start to its line saying every group started
# (- when not printed).
measure() {
    local start first="" connected="-" started="-" line
    start=$EPOCHREALTIME
    while IFS= read -r line; do
        if [[ -z "$first" && ( "$line" == "[G3] ff-"*/*:* || "$line" == ff-*/*:* ) ]]; then
            first=$EPOCHREALTIME
        elif [[ "$line" == "ff-launcher: started "* ]]; then
            started=$(awk -v n="$EPOCHREALTIME" -v s="$start" 'BEGIN { printf "%d", (n - s) * 1000 }')
        elif [[ "$line" == "ff-launcher: all groups connected "* ]]; then
            connected="${line#ff-launcher: all groups connected }"
            connected="${connected%% ms*}"
        fi
    done < <("$@" 2>&1)
    [[ -n "$first" ]] || { echo "no result line from: $*" >&2; exit 1; }
    awk -v f="$first" -v s="$start" -v c="$connected" -v g="$started" 'BEGIN { printf "%d %s %s\n", (f - s) * 1000, c, g }'
}

median() {
    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else print (NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)) }'
}

declare -A commands
names=("defaults" "--no-cds")
commands[defaults]="${launcher[*]} -- ${examples[*]} ${search[*]}"
commands[--no-cds]="${launcher[*]} --no-cds -- ${examples[*]} ${search[*]}"
if [[ -n "$baseline" ]]; then
    names+=("baseline")
    commands[baseline]="java -jar $baseline/ff-launcher.jar run --no-status -c $config -- java -jar $baseline/ff-examples.jar ${search[*]}"
fi
if $bound; then
    names+=("bound")
    commands[bound]="${launcher[*]} -- java -cp $bound_dir/connect-only.jar ConnectOnly"
fi
names+=("one process")
commands[one process]="${examples[*]} ${search[*]}"

echo "warm-up: writes each variant's CDS archive and remembers the program's groups"
for name in "${names[@]}"; do
    # shellcheck disable=SC2086 # the commands are words without spaces
    measure ${commands[$name]} > /dev/null
done
declare -A firsts connects starts
for ((r = 1; r <= rounds; r++)); do
    for name in "${names[@]}"; do
        # shellcheck disable=SC2086
        read -r f c g < <(measure ${commands[$name]})
        firsts[$name]+="$f "
        connects[$name]+="$c "
        starts[$name]+="$g "
    done
done
numbers_median() { (tr ' ' '\n' <<< "$1" | grep -E '^[0-9]+$' || true) | median; }
printf "%-12s %14s %14s %14s   (%d rounds, %d cores, load average %s)\n" "variant (ms)" "first result" \
    "all connected" "groups started" "$rounds" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
for name in "${names[@]}"; do
    printf "%-12s %14s %14s %14s   first results: %s\n" "$name" "$(numbers_median "${firsts[$name]}")" \
        "$(numbers_median "${connects[$name]:-}")" "$(numbers_median "${starts[$name]:-}")" "${firsts[$name]}"
done
echo "(medians; all connected: from the first group's start; groups started: from the launcher's start)"
