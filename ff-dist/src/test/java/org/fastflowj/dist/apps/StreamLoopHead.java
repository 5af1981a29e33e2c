package org.fastflowj.dist.apps;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;
import org.fastflowj.core.MultiInputNode;

/**
 * Heads a loop that a stream feeds: a stream item goes round as {@code first(x)}; a fed-back item goes
 * round again while {@code again(x)} holds, else it retires. After the stream's EOS the head sends EOS
 * forward (and keeps taking fed-back items) once nothing is out, so the loop drains, in one group or
 * across groups.
 */
public class StreamLoopHead extends MultiInputNode<Long, Long> {
    /** The retired items, in the order they retired. */
    public final List<Long> retired = Collections.synchronizedList(new ArrayList<>());

    private final LongUnaryOperator first;
    private final LongPredicate again;
    private int outstanding;
    private boolean ended;

    public StreamLoopHead(LongUnaryOperator first, LongPredicate again) {
        this.first = first;
        this.again = again;
    }

    @Override
    protected Long svc(Long in) {
        if (!fromFeedback()) {
            outstanding++;
            return first.applyAsLong(in);
        }
        if (again.test(in)) {
            return in;
        }
        retired.add(in);
        if (--outstanding == 0 && ended) {
            sendOut(eos());
        }
        return goOn();
    }

    @Override
    protected void eosNotify(int channel) {
        ended = true;
        if (outstanding == 0) {
            sendOut(eos());
        }
    }
}
