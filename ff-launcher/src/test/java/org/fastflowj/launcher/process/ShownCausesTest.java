package org.fastflowj.launcher.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShownCausesTest {
    private static final String MESSAGE =
            "cannot serialize an item of my.app.Order (field lazyCountry): it holds a lambda";

    @Test
    void shouldShowALongMessageInFullOnceThenPointBackAtTheGroupThatShowedIt() {
        ShownCauses causes = new ShownCauses();
        List<String> shown = new ArrayList<>();
        causes.show(
                "A",
                "group A failed: node ff-send-B failed in svc: java.lang.IllegalArgumentException: " + MESSAGE,
                shown::add);
        causes.show(
                "A",
                "Exception in thread \"main\" a.NodeFailedException: java.lang.IllegalArgumentException: " + MESSAGE,
                shown::add);
        causes.show(
                "B",
                "group B failed: node group A failed in abort: a.GroupFailedException: group A failed: " + MESSAGE,
                shown::add);
        assertThat(shown)
                .containsExactly(
                        "group A failed: node ff-send-B failed in svc: java.lang.IllegalArgumentException: " + MESSAGE,
                        "Exception in thread \"main\" a.NodeFailedException: java.lang.IllegalArgumentException:"
                                + " (as above)",
                        "group B failed: node group A failed in abort: a.GroupFailedException: group A failed:"
                                + " (as above, from group A)");
    }

    @Test
    void shouldRepeatAShortMessageAndOrdinaryLines() {
        ShownCauses causes = new ShownCauses();
        List<String> shown = new ArrayList<>();
        List<String> lines = List.of(
                "java.lang.IllegalStateException: square refuses 50",
                "java.lang.IllegalStateException: square refuses 50",
                "B is done",
                "B is done");
        lines.forEach(l -> causes.show("B", l, shown::add));
        assertThat(shown).isEqualTo(lines);
    }
}
