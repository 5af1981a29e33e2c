#!/usr/bin/env bash
# Fuzzes ff-dist's @FuzzTest targets with Jazzer, one target at a time (the fuzzer takes a core).
#
#   ff-dist/fuzz.sh [SECONDS] [TARGET...]     SECONDS per target (default 300)
#   ff-dist/fuzz.sh 60 HandshakeFuzzTest#shouldOpenOrFailTheConnectionExactlyOnce
#
# A normal build (mvn verify) only replays each target's inputs in
# src/test/resources/<package>/<TestClass>Inputs/<method>/. Here JAZZER_FUZZ=1 makes Jazzer mutate
# them instead; a target stops at its first finding and Jazzer writes the input that found it
# (crash-<sha1>) into that same folder, so it is replayed by every build from then on: fix the bug,
# keep the file, commit both. The inputs Jazzer finds interesting along the way go to
# ff-dist/.cifuzz-corpus/ (not committed) and make the next run start where this one stopped.
set -euo pipefail

cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-300}
shift || true
if [[ ! "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]]; then
    echo "usage: ff-dist/fuzz.sh [SECONDS] [TestClass#method ...]" >&2
    exit 2
fi
TARGETS=("$@")
if [[ ${#TARGETS[@]} -eq 0 ]]; then
    TARGETS=(
        FrameDecoderFuzzTest#shouldReassembleTheStreamOrFailWithAFrameException
        HandshakeFuzzTest#shouldRefuseOrWelcomeTheClientExactlyOnce
        HandshakeFuzzTest#shouldOpenOrFailTheConnectionExactlyOnce
        ItemCodecFuzzTest#shouldReadItemsOrRefuseTheBatchCleanly
        DffConfigFuzzTest#shouldReadTheConfigOrBlameALineAndColumn
    )
fi

INSTRUMENT='org.fastflowj.**:com.esotericsoftware.kryo.**:com.fasterxml.jackson.core.**:io.netty.handler.codec.**'
failed=()
for target in "${TARGETS[@]}"; do
    echo "== fuzzing $target for ${SECONDS_PER_TARGET}s"
    log="ff-dist/target/fuzz-${target//#/-}.log"
    # Coverage also inside the libraries that parse for us (Jazzer instruments only our own classes by
    # default), and the sanitizers on (the pom turns them off for normal builds). The tests' @Timeout bounds a replay, not a fuzzing session. The handshake logs every refusal at WARN: millions of lines at fuzzing speed.
    if JAZZER_FUZZ=1 mvn -B -q -o -pl ff-dist -am test \
        -Dtest="$target" -Dsurefire.failIfNoSpecifiedTests=false \
        -Djazzer.max_duration="${SECONDS_PER_TARGET}s" \
        -Djazzer.instrumentation_includes="$INSTRUMENT" -Djazzer.hooks=true \
        -Djunit.jupiter.execution.timeout.mode=disabled \
        -Dorg.slf4j.simpleLogger.defaultLogLevel=error >"$log" 2>&1; then
        echo "   no finding ($(grep -Eo '#[0-9]+[[:space:]]+DONE.*' "$log" | tail -1 || true))"
    else
        failed+=("$target")
        echo "   FINDING or failure, see $log:"
        grep -v '^INFO' "$log" | grep -E 'Test unit written to|FuzzTestFinding|Caused by' | head -5 | sed 's/^/     /' || true
    fi
done
git status --short -- ff-dist/src/test/resources
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "findings in: ${failed[*]} (their inputs are in the Inputs folders above)"
    exit 1
fi
