package org.example.app;

import org.example.app.SquaresFarm.Numbers;
import org.example.app.SquaresFarm.Square;
import org.example.app.SquaresFarm.Sum;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The farm of {@link SquaresFarm} as two groups: G1 holds the numbers and the farm, G2 the sum; the
 * squares cross from G1 to G2 over TCP (the endpoints are in app.json).
 */
final class TwoGroups {
    private static final Logger LOG = LoggerFactory.getLogger(TwoGroups.class);

    private TwoGroups() {}

    static void run(long count) {
        // tag::groups[]
        Numbers numbers = new Numbers(count);
        Farm squares = Farm.of(4, Square::new);
        Sum sum = new Sum();
        Pipeline pipe = new Pipeline(numbers, squares, sum);
        pipe.createGroup("G1").include(numbers).include(squares);
        pipe.createGroup("G2").include(sum);

        pipe.runAndWaitEnd(); // with --DFF_GName=G1 only G1's part runs here; without a group, all of it
        if (DFF.group().map("G2"::equals).orElse(true)) { // the group that holds the sum prints it
            System.out.println("groups: sum of squares = " + sum.total);
        }
        // end::groups[]
        LOG.info("{} ended", DFF.group().map(g -> "group " + g).orElse("the whole program"));
    }
}
