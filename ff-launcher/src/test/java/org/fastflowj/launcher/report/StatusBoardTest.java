package org.fastflowj.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A group's line of the board without a terminal; {@code StatusBoardTerminalTest} draws it on one. */
class StatusBoardTest {
    @Test
    void shouldNameTheSpareAMovedGroupRunsOn() {
        StatusBoard board = new StatusBoard(List.of("A", "B"), null);
        board.update("A", "starting");
        board.update("B", "starting");
        board.moved("B", "netns:ffj3");
        board.update("B", "connected");

        assertThat(board.describe("B")).matches("connected on spare netns:ffj3, \\d+\\.\\d s");
        assertThat(board.describe("A")).matches("starting, \\d+\\.\\d s");
        board.finish();
    }
}
