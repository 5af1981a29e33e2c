package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.GroupsPrintedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code --DFF_PrintGroups}: the run prints the groups, runs nothing, and unwinds the program instead of ending it. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PrintGroupsTest {
    private final AtomicInteger served = new AtomicInteger();

    @AfterEach
    void reset() {
        DFF.reset();
    }

    private Pipeline program() {
        Node<Void, Integer> source = Node.source(List.of(1, 2, 3));
        Node<Integer, Integer> pass = Node.of((Integer x) -> {
            served.incrementAndGet();
            return x;
        });
        Node<Integer, Void> sink = Node.sink((Integer x) -> served.incrementAndGet());
        source.createGroup("S");
        pass.createGroup("P");
        sink.createGroup("Q");
        return new Pipeline(source, pass, sink);
    }

    private static String printedBy(Runnable run) {
        PrintStream original = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            run.run();
        } finally {
            System.setOut(original);
        }
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldPrintTheGroupsInGraphOrderRunNothingAndThrow() {
        Pipeline program = program();
        Throwable[] thrown = new Throwable[1];

        String printed = printedBy(() -> DFF.Settings.fromArgs(DFF.PRINT_GROUPS_OPTION)
                .run(() -> thrown[0] = catchThrowable(program::runAndWaitEnd)));

        assertThat(printed).isEqualTo("DFF_GROUPS: S,P,Q" + System.lineSeparator());
        assertThat(thrown[0])
                .isInstanceOf(GroupsPrintedException.class)
                .hasMessage("started with --DFF_PrintGroups: printed the program's groups (S,P,Q) and ran nothing");
        assertThat(((GroupsPrintedException) thrown[0]).groups()).containsExactly("S", "P", "Q");
        assertThat(thrown[0].getStackTrace())
                .as("one line when main lets it through")
                .isEmpty();
        assertThat(served).as("no node ran").hasValue(0);
    }

    @Test
    void shouldAnswerTheSameForABlockALibraryRunsInItsOwnGroup() {
        DFF.init(DFF.PRINT_GROUPS_OPTION);
        Pipeline program = program();
        Throwable[] thrown = new Throwable[1];

        String printed = printedBy(() ->
                thrown[0] = catchThrowable(() -> program.runOwnGroupOrInProcessAndWaitEnd(RunOptions.defaults())));

        assertThat(printed).isEqualTo("DFF_GROUPS: S,P,Q" + System.lineSeparator());
        assertThat(thrown[0]).isInstanceOf(GroupsPrintedException.class);
        assertThat(served).hasValue(0);
    }
}
