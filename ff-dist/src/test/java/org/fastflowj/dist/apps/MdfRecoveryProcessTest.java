package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.dist.apps.RecoveryProcessTest.awaitLine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each group a real JVM ({@link RecoverableMdfApp}: the scheduler and one worker in S, one worker in each
 * of W1, W2 and W3): a macro data-flow that loses worker groups (kill -9) at random moments recomputes
 * their unfinished tasks on the workers left, from the inputs the scheduler kept, and ends with the
 * sequential result bit for bit; the groups left exit 0 and S names each lost group. Losing S, the
 * scheduler's group, fails the run in every group instead.
 *
 * <p>The moments are random but printed with their seed, so that a failing run can be repeated.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MdfRecoveryProcessTest {
    private static final List<String> WORKER_GROUPS = List.of("W1", "W2", "W3");
    private static final int OUTSTANDING = 32;

    @TempDir
    Path dir;

    /** One worker group killed once a random share of the tasks is added, after a random pause. */
    @ParameterizedTest
    @CsvSource({"matmul, 8, 3000", "wavefront, 8, 4000", "loop, 12, 3000"})
    void shouldRecomputeTheTasksOfAWorkerGroupKilledAtARandomMoment(String shape, int blocks, long workMicros)
            throws Exception {
        long seed = seed();
        Random random = new Random(seed);
        String victim = WORKER_GROUPS.get(random.nextInt(WORKER_GROUPS.size()));
        String moment = moment(shape, random);
        int pauseMs = random.nextInt(100);
        System.out.printf("%s: kill -9 of %s at '%s' + %d ms (seed %d)%n", shape, victim, moment, pauseMs, seed);
        try (ProcessCluster cluster = start(shape, blocks, workMicros)) {
            awaitLine(cluster, "S", moment);
            Thread.sleep(pauseMs);
            kill(cluster, victim);

            assertRecovered(cluster, expected(shape, blocks), List.of(victim));
        }
    }

    /** A worker group killed while a task is inside its kernel for sure: that task runs again elsewhere. */
    @Test
    void shouldRecomputeTheTaskAKilledGroupWasRunning() throws Exception {
        try (ProcessCluster cluster = start("matmul", 6, 2000, "W2")) {
            awaitLine(cluster, "W2", "holding a task");
            kill(cluster, "W2");

            assertRecovered(cluster, expected("matmul", 6), List.of("W2"));
            Matcher handedBack =
                    Pattern.compile("group W2 lost: ([0-9]+) unanswered item").matcher(cluster.output("S"));
            assertThat(handedBack.find()).as(cluster.allOutput()).isTrue();
            assertThat(Integer.parseInt(handedBack.group(1)))
                    .as("the task in W2's kernel, at least, is computed again\n" + cluster.allOutput())
                    .isPositive();
        }
    }

    /** Two worker groups killed one after the other, each at a random moment. */
    @Test
    void shouldFinishWhenTwoWorkerGroupsAreKilledOneAfterTheOther() throws Exception {
        long seed = seed();
        Random random = new Random(seed);
        List<String> victims = new ArrayList<>(WORKER_GROUPS);
        victims.remove(random.nextInt(victims.size()));
        int firstAt = 1 + random.nextInt(6);
        int secondAt = firstAt + 1 + random.nextInt(8);
        System.out.printf(
                "matmul: kill -9 of %s at %d/20 of the tasks, of %s at %d/20 (seed %d)%n",
                victims.get(0), firstAt, victims.get(1), secondAt, seed);
        try (ProcessCluster cluster = start("matmul", 8, 3000)) {
            awaitLine(cluster, "S", "progress " + firstAt + "/20");
            kill(cluster, victims.get(0));
            awaitLine(cluster, "S", "DFF_LOST: " + victims.get(0));
            awaitLine(cluster, "S", "progress " + secondAt + "/20");
            kill(cluster, victims.get(1));

            assertRecovered(cluster, expected("matmul", 8), victims);
        }
    }

    /** Every worker group lost, one after the other: the scheduler's own worker does the rest. */
    @Test
    void shouldFinishOnTheSchedulersOwnWorkerWhenEveryWorkerGroupIsLost() throws Exception {
        long seed = seed();
        Random random = new Random(seed);
        int at = 1 + random.nextInt(8);
        System.out.printf("wavefront: kill -9 of W3, W1, W2 from %d/20 of the tasks on (seed %d)%n", at, seed);
        // 30 ms tasks: three kills, each awaited until its loss is seen, fit in the run on a loaded machine
        try (ProcessCluster cluster = start("wavefront", 6, 30_000)) {
            awaitLine(cluster, "S", "progress " + at + "/20");
            for (String victim : List.of("W3", "W1", "W2")) {
                kill(cluster, victim);
                awaitLine(cluster, "S", "DFF_LOST: " + victim);
                Thread.sleep(random.nextInt(80));
            }

            assertRecovered(cluster, expected("wavefront", 6), List.of("W3", "W1", "W2"));
        }
    }

    /**
     * A program that runs twice across the same groups: the group lost in the first run has no process for
     * the second, which goes on without it from its start instead of waiting for it.
     */
    @Test
    void shouldRunALaterRunOfTheProgramWithoutTheGroupLostInAnEarlierOne() throws Exception {
        try (ProcessCluster cluster = start("matmul+loop", 8, 3000)) {
            awaitLine(cluster, "S", "progress 6/20");
            long killedNs = System.nanoTime();
            kill(cluster, "W1");

            assertRecovered(cluster, expected("matmul", 8), List.of("W1"));
            assertThat(System.nanoTime() - killedNs)
                    .as("the second run waited for W1: " + cluster.allOutput())
                    .isLessThan(TimeUnit.SECONDS.toNanos(20)); // the connect timeout is 30 s
            assertThat(cluster.output("S"))
                    .as(cluster.allOutput())
                    .contains(expected("loop", 8))
                    .contains("group S lost group W1 and goes on without it (lost in an earlier run of this program)");
        }
    }

    /** The scheduler's group holds the tasks and their dependencies: without it no group can go on. */
    @Test
    void shouldFailEveryGroupWhenTheSchedulersGroupIsKilled() throws Exception {
        try (ProcessCluster cluster = start("matmul", 8, 3000)) {
            awaitLine(cluster, "S", "progress 5/20");
            kill(cluster, "S");

            Map<String, Integer> codes = cluster.awaitExit(60);

            String logs = cluster.allOutput();
            for (String g : WORKER_GROUPS) {
                assertThat(codes.get(g)).as(g + "\n" + logs).isNotZero();
                assertThat(cluster.output(g))
                        .as(logs)
                        .contains("DFF_FAILED: S\n")
                        .contains("group S holds the emitter (ff-farm1-emitter) of the recoverable farm whose workers"
                                + " this group runs; a run goes on without a lost group of workers, never without the"
                                + " farm's own group (with a MacroDataFlow or ParallelFor: the scheduler's")
                        .doesNotContain("DFF_LOST");
            }
        }
    }

    /** A new seed per run, or the one given with {@code -Dmdf.recovery.seed=...} to repeat a run. */
    private static long seed() {
        return Long.getLong("mdf.recovery.seed", System.nanoTime());
    }

    private static String moment(String shape, Random random) {
        return shape.equals("loop")
                ? "ran " + 100 * (1 + random.nextInt(5)) + " in S" // of some 1500 indices S runs
                : "progress " + (1 + random.nextInt(15)) + "/20";
    }

    /** The line S prints when the run computed the sequential result. */
    private static String expected(String shape, int blocks) {
        String result;
        if (shape.equals("loop")) {
            result = RecoverableMdfApp.loopDigest(blocks * 500);
        } else if (shape.equals("matmul")) {
            double[][][] c = new double[blocks][blocks][RecoverableMdfApp.BS * RecoverableMdfApp.BS];
            RecoverableMdfApp.matmulSequential(
                    RecoverableMdfApp.random(blocks, 1), RecoverableMdfApp.random(blocks, 2), c);
            result = shape + " digest=" + Long.toHexString(RecoverableMdfApp.digest(c));
        } else {
            double[][][] x = RecoverableMdfApp.random(blocks, 3);
            RecoverableMdfApp.wavefrontSequential(x);
            result = shape + " digest=" + Long.toHexString(RecoverableMdfApp.digest(x));
        }
        return "RESULT: " + result + " equal=true\n";
    }

    private ProcessCluster start(String shape, int blocks, long workMicros, String... holdIn) throws Exception {
        Path config = ProcessCluster.config(dir, RecoverableMdfApp.GROUPS, "");
        List<String> args = new ArrayList<>(
                List.of(shape, Integer.toString(blocks), Long.toString(workMicros), Integer.toString(OUTSTANDING)));
        args.addAll(List.of(holdIn));
        return ProcessCluster.start(
                RecoverableMdfApp.class, config, RecoverableMdfApp.GROUPS, List.of(), args.toArray(String[]::new));
    }

    private static void kill(ProcessCluster cluster, String group) {
        cluster.process(group).destroyForcibly(); // kill -9
    }

    private static void assertRecovered(ProcessCluster cluster, String expected, List<String> lost)
            throws InterruptedException {
        Map<String, Integer> codes = cluster.awaitExit(60);

        String logs = cluster.allOutput();
        for (String g : RecoverableMdfApp.GROUPS) {
            if (!lost.contains(g)) {
                assertThat(codes.get(g)).as(g + "\n" + logs).isZero();
            }
        }
        String home = cluster.output("S");
        Matcher handedBack =
                Pattern.compile("group (W[0-9]) lost: ([0-9]+) unanswered item").matcher(home);
        while (handedBack.find()) {
            System.out.println("  " + handedBack.group(2) + " task(s) of " + handedBack.group(1) + " computed again");
        }
        assertThat(home)
                .as(logs)
                .contains(expected)
                .contains("DFF_LOSABLE: W1,W2,W3\n")
                .doesNotContain("DFF_FAILED");
        for (String g : lost) {
            assertThat(home).as(logs).contains("DFF_LOST: " + g + "\n", "group S lost group " + g);
        }
    }
}
