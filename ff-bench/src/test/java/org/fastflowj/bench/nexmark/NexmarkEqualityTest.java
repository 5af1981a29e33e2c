package org.fastflowj.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every query's output on FastFlow-J (parallelism 1 and 2, 200 000 events), Flink and Jet (parallelism 2,
 * 100 000 events) equals the plain-Java reference's on the same events, as a multiset of result lines
 * (count and sum of line hashes). The events span 100 s of event time, so the windowed queries have 10 to
 * 1000 windows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class NexmarkEqualityTest {
    private static final long EVENTS = 200_000;
    /** Flink and Jet start slower and cost more per record: half the events, the same span of event time. */
    private static final long PEER_EVENTS = 100_000;

    private final Map<Query, String> expected = new EnumMap<>(Query.class);
    private final Map<Query, String> expectedForPeers = new EnumMap<>(Query.class);

    @BeforeAll
    void reference() {
        for (Query q : Query.values()) {
            expected.put(q, reference(spec(q, 1)));
            expectedForPeers.put(q, reference(peerSpec(q)));
        }
    }

    private static String reference(RunSpec spec) {
        Tally tally = Tally.open(spec);
        try {
            Reference.results(spec.query(), spec.events(), spec.generator(), tally::record);
            return tally.digest();
        } finally {
            tally.close();
        }
    }

    @AfterAll
    void stopJet() {
        JetNexmark.shutdown();
    }

    @Test
    void theReferenceHasResultsForEveryQuery() {
        for (Query q : Query.values()) {
            assertThat(Long.parseLong(expected.get(q).split("/")[0]))
                    .as("%s's reference results", q)
                    .isGreaterThan(q == Query.Q7 ? 5 : 50);
        }
    }

    @ParameterizedTest
    @EnumSource(Query.class)
    void fastflowjEqualsTheReference(Query q) {
        for (int parallelism = 1; parallelism <= 2; parallelism++) {
            RunSpec spec = spec(q, parallelism);
            assertThat(digest(spec, () -> FfjNexmark.run(spec)))
                    .as("%s on FastFlow-J at parallelism %d", q, parallelism)
                    .isEqualTo(expected.get(q));
        }
    }

    /** Checkpoints change nothing in a run without a failure: the sources' positions and the state are saved. */
    @ParameterizedTest
    @EnumSource(
            value = Query.class,
            names = {"Q3", "Q5", "Q8"})
    void fastflowjWithCheckpointsEqualsTheReference(Query q) {
        RunSpec spec = spec(q, 2);
        assertThat(digest(spec, () -> FfjNexmark.run(spec, java.time.Duration.ofMillis(5))))
                .as("%s on FastFlow-J at parallelism 2, a checkpoint every 5 ms", q)
                .isEqualTo(expected.get(q));
    }

    /** All queries as one Flink job: one MiniCluster start instead of one per query. */
    @Test
    void flinkEqualsTheReference() throws Exception {
        List<RunSpec> specs = new ArrayList<>();
        List<Tally> tallies = new ArrayList<>();
        try {
            for (Query q : Query.values()) {
                RunSpec spec = peerSpec(q);
                specs.add(spec);
                tallies.add(Tally.open(spec));
            }
            FlinkNexmark.runAll(specs);
            SoftAssertions softly = new SoftAssertions();
            for (int i = 0; i < specs.size(); i++) {
                softly.assertThat(tallies.get(i).digest())
                        .as("%s on Flink at parallelism 2", specs.get(i).query())
                        .isEqualTo(expectedForPeers.get(specs.get(i).query()));
            }
            softly.assertAll();
        } finally {
            tallies.forEach(Tally::close);
        }
    }

    @ParameterizedTest
    @EnumSource(Query.class)
    void jetEqualsTheReference(Query q) {
        RunSpec spec = peerSpec(q);
        assertThat(digest(spec, () -> JetNexmark.run(spec)))
                .as("%s on Jet at parallelism 2", q)
                .isEqualTo(expectedForPeers.get(q));
    }

    /** 200 000 events over 100 s of event time: 10 to 1000 windows per windowed query. */
    private static RunSpec spec(Query q, int parallelism) {
        return new RunSpec(UUID.randomUUID().toString(), q, EVENTS, parallelism, 2_000, 0, Tally.Mode.DIGEST);
    }

    private static RunSpec peerSpec(Query q) {
        return new RunSpec(UUID.randomUUID().toString(), q, PEER_EVENTS, 2, 1_000, 0, Tally.Mode.DIGEST);
    }

    interface Run {
        long run() throws Exception;
    }

    private static String digest(RunSpec spec, Run run) {
        Tally tally = Tally.open(spec);
        try {
            run.run();
            return tally.digest();
        } catch (Exception e) {
            throw new AssertionError(spec.query() + " failed: " + e, e);
        } finally {
            tally.close();
        }
    }
}
