package org.fastflowj.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CauseLineTest {
    @Test
    void shouldTakeTheInnermostExceptionNodeAndMessageOfAnUncaughtException() {
        CauseLine cause = CauseLine.of("Exception in thread \"main\" org.fastflowj.core.NodeFailedException: node"
                        + " square failed in svc: java.lang.IllegalStateException: square refuses 50")
                .orElseThrow();
        assertThat(cause.exception()).isEqualTo("java.lang.IllegalStateException");
        assertThat(cause.node()).isEqualTo("square");
        assertThat(cause.message()).isEqualTo("square refuses 50");
        assertThat(cause.describe())
                .isEqualTo("with java.lang.IllegalStateException in node square: square refuses 50");
    }

    @Test
    void shouldReadThroughAPeersRelayOfAnotherGroupsFailureInALogLine() {
        String line = "[ff-dist-io-B-2] ERROR org.fastflowj.dist.run.lifecycle.PeerAborts - group B failed: node group"
                + " A failed in abort: org.fastflowj.dist.run.lifecycle.GroupFailedException: group A failed: node"
                + " ff-send-B failed in svc: java.lang.IllegalArgumentException: cannot serialize an item of my.Order";
        CauseLine cause = CauseLine.of(line).orElseThrow();
        assertThat(cause.exception()).isEqualTo("java.lang.IllegalArgumentException");
        assertThat(cause.node()).isEqualTo("ff-send-B");
        assertThat(cause.message()).isEqualTo("cannot serialize an item of my.Order");
        assertThat(cause.replaceMessage(line, "(as above)"))
                .endsWith("svc: java.lang.IllegalArgumentException: (as above)")
                .startsWith("[ff-dist-io-B-2] ERROR org.fastflowj.dist.run.lifecycle.PeerAborts - group B failed");
    }

    @Test
    void shouldKeepAMessageThatOnlyLooksLikeAWrapper() {
        CauseLine cause = CauseLine.of("java.io.UncheckedIOException: config.json: Unable to find class: my.app.X")
                .orElseThrow();
        assertThat(cause.exception()).isEqualTo("java.io.UncheckedIOException");
        assertThat(cause.message()).isEqualTo("config.json: Unable to find class: my.app.X");
    }

    @Test
    void shouldNameTheExceptionAloneWhenTheInnermostHasNoMessage() {
        CauseLine cause = CauseLine.of("java.lang.RuntimeException: java.lang.NullPointerException")
                .orElseThrow();
        assertThat(cause.describe()).isEqualTo("with java.lang.NullPointerException");
        assertThat(cause.message()).isNull();
    }

    @Test
    void shouldSayAGroupsOwnFailureWithoutAnExceptionClass() {
        assertThat(CauseLine.of("group B failed: node square failed in svc: square refuses 50")
                        .orElseThrow()
                        .describe())
                .isEqualTo("in node square: square refuses 50");
    }

    @Test
    void shouldFindNoCauseInAProgramsOrdinaryLine() {
        assertThat(CauseLine.of("B is done, see org.fastflowj.core.Pipeline - it ran"))
                .isEmpty();
    }
}
